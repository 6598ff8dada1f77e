package search

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"flightalliance/alliance/flight"
	airtrip "flightalliance/alliance/trip"
	"flightalliance/soap"
)

// orders pairs every search order with the airline's.
var orders = []struct {
	search  Order
	airline airtrip.Order
}{
	{ByPrice, airtrip.ByPrice}, {ByDuration, airtrip.ByDuration}, {ByDeparture, airtrip.ByDeparture}, {ByArrival, airtrip.ByArrival},
}

func TestOrderNamesAreTheAirlines(t *testing.T) {
	for _, o := range orders {
		if o.search.String() != o.airline.String() {
			t.Errorf("search order %q is the airline's %q", o.search, o.airline)
		}
		got, err := ParseOrder(o.airline.String())
		if err != nil || got != o.search {
			t.Errorf("ParseOrder(%q) = %v, %v", o.airline, got, err)
		}
		back, err := airtrip.ParseOrder(o.search.String())
		if err != nil || back != o.airline {
			t.Errorf("airtrip.ParseOrder(%q) = %v, %v", o.search, back, err)
		}
	}
	for _, bad := range []string{"", "Price", "cheapest", "price ", "-price"} {
		if _, err := ParseOrder(bad); err == nil {
			t.Errorf("ParseOrder(%q) accepted", bad)
		}
	}
}

// flightPool makes n (at most 12) distinct flights (a flight is its seller and number) with few
// distinct prices, times and numbers, so that ties on every key are common; numbers repeat across
// sellers.
func flightPool(rng *rand.Rand, n int) []flight.Flight {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	seen := map[flight.Key]bool{}
	var pool []flight.Flight
	for len(pool) < n {
		// Directs TLV→JFK and first legs TLV→ATH leave in the first hour and land within the
		// second; second legs ATH→JFK leave in the third: every first and second connect.
		r := routes[rng.IntN(len(routes))]
		f := flight.Flight{
			Seller: []string{"LY", "UA", "LH"}[rng.IntN(3)],
			Number: fmt.Sprintf("F%d", rng.IntN(4)),
			Src:    r.src, Dst: r.dst,
			Price: flight.Cents(50 * rng.IntN(3)),
			Seats: rng.IntN(3),
		}
		if seen[f.Key()] {
			continue
		}
		seen[f.Key()] = true
		f.Departure = day.Add(r.from + time.Duration(rng.IntN(3))*30*time.Minute)
		f.Arrival = f.Departure.Add(time.Duration(1+rng.IntN(2)) * 30 * time.Minute)
		pool = append(pool, f)
	}
	return pool
}

// routes are the flights of flightPool: TLV→JFK directs, and connections at ATH.
var routes = []struct {
	src, dst string
	from     time.Duration // the earliest departure, into the day
}{{"TLV", "JFK", 0}, {"TLV", "ATH", 0}, {"ATH", "JFK", 2 * time.Hour}}

// randomAirlineTrips makes up to n distinct trips TLV→JFK of pool: directs, and connections at ATH.
func randomAirlineTrips(rng *rand.Rand, pool []flight.Flight, n int) []airtrip.Trip {
	from := func(src, dst string) []flight.Flight {
		return slices.DeleteFunc(slices.Clone(pool), func(f flight.Flight) bool { return f.Src != src || f.Dst != dst })
	}
	directs, firsts, seconds := from("TLV", "JFK"), from("TLV", "ATH"), from("ATH", "JFK")
	seen := map[string]bool{}
	var out []airtrip.Trip
	for range n {
		var legs []flight.Flight
		switch {
		case rng.IntN(2) == 0 && len(firsts) > 0 && len(seconds) > 0:
			legs = []flight.Flight{firsts[rng.IntN(len(firsts))], seconds[rng.IntN(len(seconds))]}
		case len(directs) > 0:
			legs = []flight.Flight{directs[rng.IntN(len(directs))]}
		default:
			continue
		}
		id := tripID(legs)
		if seen[id] {
			continue
		}
		seen[id] = true
		var price flight.Cents
		for _, l := range legs {
			price += l.Price
		}
		out = append(out, airtrip.Trip{Legs: legs, Price: price})
	}
	return out
}

func tripID(legs []flight.Flight) string {
	var parts []string
	for _, l := range legs {
		parts = append(parts, l.Seller+"/"+l.Number)
	}
	return strings.Join(parts, ">")
}

// toWire is a trip as a delegate sends it (alliance/gather/triplist.go's wire form).
func toWire(t airtrip.Trip, alliance string) soap.Trip {
	w := soap.Trip{Price: t.Price.String()}
	for _, f := range t.Legs {
		w.Legs = append(w.Legs, soap.Leg{Flight: f.Number, Seller: f.Seller, Alliance: alliance, Src: f.Src, Dst: f.Dst,
			Departure: f.Departure.Format(time.RFC3339), Arrival: f.Arrival.Format(time.RFC3339),
			Price: f.Price.String(), Seats: f.Seats})
	}
	return w
}

// convertTrip validates one trip with its legs inline, as mergeOne does, for the query it is a
// trip of.
func convertTrip(alliance string, wt *soap.Trip) (trip, error) {
	var q Query
	if n := len(wt.Legs); n > 0 {
		q = Query{Src: wt.Legs[0].Src, Dst: wt.Legs[n-1].Dst, Date: wt.Legs[0].Departure[:min(10, len(wt.Legs[0].Departure))]}
	}
	c, err := newConverter(alliance, q, &soap.GetTripsResponse{Trips: []soap.Trip{*wt}})
	if err != nil {
		return trip{}, err
	}
	return c.trip(wt)
}

func fromWire(tb testing.TB, alliance string, w soap.Trip) trip {
	tb.Helper()
	t, err := convertTrip(alliance, &w)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func sign(c int) int { return cmp.Compare(c, 0) }

// TestOrderAgreesWithTheAirlines: on the trips of one alliance, every order of the search server
// (on the wire form) is exactly airtrip.Order.Compare: the same sign on every pair, and the same
// sorted list.
func TestOrderAgreesWithTheAirlines(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 34))
	for round := range 300 {
		trips := randomAirlineTrips(rng, flightPool(rng, 4+rng.IntN(9)), 1+rng.IntN(40))
		wire := make([]trip, len(trips))
		for i, tr := range trips {
			wire[i] = fromWire(t, "star", toWire(tr, "star"))
		}
		for _, o := range orders {
			for i := range trips {
				for j := range trips {
					want := sign(o.airline.Compare(trips[i], trips[j]))
					if got := sign(o.search.compare(&wire[i], &wire[j])); got != want {
						t.Fatalf("round %d, %s: %s vs %s: search says %d, airline %d", round, o.search,
							tripID(trips[i].Legs), tripID(trips[j].Legs), got, want)
					}
				}
			}
			a := slices.Clone(trips)
			slices.SortFunc(a, o.airline.Compare)
			b := slices.Clone(wire)
			rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			slices.SortFunc(b, func(x, y trip) int { return o.search.compare(&x, &y) })
			for i := range a {
				if got, want := wireID(b[i]), tripID(a[i].Legs); got != want {
					t.Fatalf("round %d, %s: position %d is %s, the airline sorts %s there", round, o.search, i, got, want)
				}
			}
		}
	}
}

func wireID(t trip) string {
	var parts []string
	for _, l := range t.legs {
		parts = append(parts, l.w.Seller+"/"+l.w.Flight)
	}
	return strings.Join(parts, ">")
}

// legsID identifies the trip of an answer as wireID does.
func legsID(t Trip) string {
	var parts []string
	for _, l := range t.Legs {
		parts = append(parts, l.Seller+"/"+l.Flight)
	}
	return strings.Join(parts, ">")
}

// TestMergedTopsAreTheWindowOfTheWholeList: alliances that each send the top offset+limit of
// their list, filtered and sorted as the airline's airtrip.Select does, merge into exactly the
// window of the whole list (every alliance's trips, filtered, sorted in the order then by
// alliance), and total counts the whole list.
func TestMergedTopsAreTheWindowOfTheWholeList(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "seed"), 1))
		pool := flightPool(rng, rapid.IntRange(3, 12).Draw(rt, "flights")) // one pool: two alliances may sell the same seller and number
		q := tlvJFK
		q.Sort = Order(rapid.IntRange(0, 3).Draw(rt, "sort"))
		q.Nonstop = rapid.Bool().Draw(rt, "nonstop")
		if rapid.Bool().Draw(rt, "has-max-price") {
			q.MaxPrice, q.HasMaxPrice = int64(rapid.IntRange(0, 500).Draw(rt, "max-price")), true
		}
		q.Limit = rapid.IntRange(0, 12).Draw(rt, "limit")
		q.Offset = rapid.IntRange(0, 30).Draw(rt, "offset")
		filter := airtrip.Filter{Nonstop: q.Nonstop, MaxPrice: flight.Cents(q.MaxPrice), HasMaxPrice: q.HasMaxPrice}
		airlineOrder := orders[q.Sort].airline

		type tagged struct {
			alliance string
			trip     airtrip.Trip
		}
		var whole []tagged
		var answers []DelegateAnswer
		for _, name := range []string{"sky", "star", "oneworld"}[:rapid.IntRange(1, 3).Draw(rt, "alliances")] {
			trips := randomAirlineTrips(rng, pool, rapid.IntRange(0, 25).Draw(rt, name))
			airtrip.Sort(trips)
			page, total := airtrip.Select(trips, filter, airlineOrder, q.wanted())
			resp := &soap.GetTripsResponse{Complete: true, Total: total}
			for _, tr := range page {
				resp.Trips = append(resp.Trips, toWire(tr, name))
			}
			answers = append(answers, DelegateAnswer{Alliance: name, Resp: resp})
			for _, tr := range trips {
				if filter.Keep(tr) {
					whole = append(whole, tagged{name, tr})
				}
			}
		}
		slices.SortFunc(whole, func(a, b tagged) int {
			return cmp.Or(airlineOrder.Compare(a.trip, b.trip), cmp.Compare(a.alliance, b.alliance))
		})
		lo := min(q.Offset, len(whole))
		hi := len(whole)
		if q.Limit > 0 {
			hi = min(lo+q.Limit, hi)
		}
		var want []string
		for _, tr := range whole[lo:hi] {
			want = append(want, tr.alliance+":"+tripID(tr.trip.Legs))
		}

		ans := Merge(q, answers)
		var got []string
		for _, tr := range ans.Trips {
			got = append(got, tr.Legs[0].Alliance+":"+legsID(tr))
		}
		if !slices.Equal(got, want) {
			rt.Fatalf("query %+v:\n got %v\nwant %v", q, got, want)
		}
		if ans.Total != len(whole) {
			rt.Fatalf("total %d, want %d", ans.Total, len(whole))
		}
	})
}
