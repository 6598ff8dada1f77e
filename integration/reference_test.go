package integration

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/soap"
)

type query struct {
	src, dst string
	date     flight.Date
	sellers  []string
}

func (q query) String() string {
	return fmt.Sprintf("%s→%s %s %v", q.src, q.dst, q.date, q.sellers)
}

// refTrip is a trip of the reference answer.
type refTrip struct {
	price   flight.Cents
	arrival time.Time
	legs    []flight.Flight
}

// referenceTrips answers a query by brute force over every flight, straight from API.md's rules,
// independently of the trip builder. Each trip is rendered as "price legs…".
func referenceTrips(data map[string][]flight.Flight, q query, minConn time.Duration) []string {
	return renderRef(sortRef(bruteForce(data, q, minConn)))
}

// referenceAcross answers a query over several alliances: no trip mixes alliances.
func referenceAcross(alliances []map[string][]flight.Flight, q query, minConn time.Duration) []string {
	var all []refTrip
	for _, data := range alliances {
		all = append(all, bruteForce(data, q, minConn)...)
	}
	return renderRef(sortRef(all))
}

func bruteForce(data map[string][]flight.Flight, q query, minConn time.Duration) []refTrip {
	var all []flight.Flight
	for _, s := range slices.Sorted(maps.Keys(data)) {
		if len(q.sellers) == 0 || slices.Contains(q.sellers, s) {
			all = append(all, data[s]...)
		}
	}
	type ref = refTrip
	var trips []ref
	on := func(f flight.Flight) bool { return flight.DateOf(f.Departure) == q.date }
	for _, f := range all {
		if on(f) && f.Src == q.src && f.Dst == q.dst {
			trips = append(trips, ref{f.Price, f.Arrival, []flight.Flight{f}})
		}
	}
	for _, f1 := range all {
		if !on(f1) || f1.Src != q.src || f1.Dst == q.dst || f1.Dst == q.src {
			continue
		}
		for _, f2 := range all {
			if on(f2) && f2.Src == f1.Dst && f2.Dst == q.dst && !f2.Departure.Before(f1.Arrival.Add(minConn)) {
				trips = append(trips, ref{f1.Price + f2.Price, f2.Arrival, []flight.Flight{f1, f2}})
			}
		}
	}
	return trips
}

func sortRef(trips []refTrip) []refTrip {
	slices.SortFunc(trips, func(a, b refTrip) int {
		if c := cmp.Compare(a.price, b.price); c != 0 {
			return c
		}
		if c := a.arrival.Compare(b.arrival); c != 0 {
			return c
		}
		return slices.Compare(numbers(a.legs), numbers(b.legs))
	})
	return trips
}

func renderRef(trips []refTrip) []string {
	out := make([]string, len(trips))
	for i, t := range trips {
		out[i] = t.price.String() + " " + legNames(t.legs)
	}
	return out
}

func numbers(legs []flight.Flight) []string {
	out := make([]string, len(legs))
	for i, f := range legs {
		out[i] = f.Number
	}
	return out
}

func legNames(legs []flight.Flight) string {
	names := make([]string, len(legs))
	for i, f := range legs {
		names[i] = f.Number
	}
	return strings.Join(names, ">")
}

// rendered renders a getTrips answer like referenceTrips does.
func rendered(resp *soap.GetTripsResponse) []string {
	out := make([]string, len(resp.Trips))
	for i, t := range resp.Trips {
		names := make([]string, len(t.Legs))
		for j, l := range t.Legs {
			names[j] = l.Flight
		}
		out[i] = t.Price + " " + strings.Join(names, ">")
	}
	return out
}

// busyQueries picks the n (src, dst) pairs of testDate with the most one-stop connections, so
// that the checks exercise connections across sellers and not only directs.
func busyQueries(data map[string][]flight.Flight, n int) []query {
	return queriesByLoad(data, n, 0, 1<<62)
}

// queriesByLoad is busyQueries restricted to pairs with between lo and hi candidate connections.
func queriesByLoad(data map[string][]flight.Flight, n, lo, hi int) []query {
	count := map[[2]string]int{}
	bySrc := map[string][]flight.Flight{}
	var day []flight.Flight
	for _, s := range slices.Sorted(maps.Keys(data)) {
		for _, f := range data[s] {
			if flight.DateOf(f.Departure) == testDate {
				day = append(day, f)
				bySrc[f.Src] = append(bySrc[f.Src], f)
			}
		}
	}
	for _, f1 := range day {
		for _, f2 := range bySrc[f1.Dst] {
			if f2.Dst != f1.Src {
				count[[2]string{f1.Src, f2.Dst}]++
			}
		}
	}
	pairs := make([][2]string, 0, len(count))
	for p, c := range count {
		if c >= lo && c <= hi {
			pairs = append(pairs, p)
		}
	}
	slices.SortFunc(pairs, func(a, b [2]string) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a[0]+a[1], b[0]+b[1])
	})
	var out []query
	for _, p := range pairs[:min(n, len(pairs))] {
		out = append(out, query{src: p[0], dst: p[1], date: testDate})
	}
	return out
}
