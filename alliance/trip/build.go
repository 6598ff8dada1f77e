package trip

import (
	"slices"
	"sort"
	"time"

	"flightalliance/alliance/flight"
)

// Build returns the trips of API.md for q, sorted (see Compare):
//
//   - direct: a flight from q.Src to q.Dst departing on q.Date;
//   - connection: f1 from q.Src to an airport X not in {q.Src, q.Dst}, then f2 from X to q.Dst,
//     both departing on q.Date, with f2.Departure >= f1.Arrival + the minimum connection;
//
// every flight of a seller in q.Sellers when that is not empty. fromSrc should hold the flights
// departing from q.Src on q.Date and toDst the flights departing on q.Date that arrive at q.Dst,
// from any number of holders: the same flight (same seller and number) may appear in both lists
// or several times in one, and counts once (its first appearance wins). Flights that do not fit
// their list are ignored rather than trusted. A query with q.Src == q.Dst has no trips.
//
// Connections are found by a hash join on the connecting airport: first legs are grouped by
// where they land and sorted by arrival, so each second leg finds the first legs it can follow
// with one binary search. The cost is the size of the inputs plus the number of trips.
func Build(q Query, fromSrc, toDst []flight.Flight) []Trip {
	if q.Src == q.Dst {
		return nil
	}
	in := prepare(q, fromSrc, toDst)
	firsts := make([][]int32, len(in.seconds)) // each second leg's, found once
	n := len(in.directs)
	for i, j := range in.seconds {
		firsts[i] = in.firstsBefore(&in.second[j])
		n += len(firsts[i])
	}
	legs := arena{free: make([]flight.Flight, 2*n-len(in.directs))} // every leg, in one allocation
	trips := make([]Trip, 0, n)
	for _, f := range in.directs {
		trips = append(trips, Trip{Legs: legs.one(f), Price: f.Price})
	}
	for i, j := range in.seconds {
		f2 := &in.second[j]
		for _, k := range firsts[i] {
			f1 := &in.first[k]
			trips = append(trips, Trip{Legs: legs.two(*f1, *f2), Price: f1.Price + f2.Price})
		}
	}
	Sort(trips)
	return trips
}

// joinInput is a query's flights made ready for the join: the direct flights, the first legs of
// connections grouped by where they land (each group sorted by arrival), and the second legs —
// every flight once (its first appearance), each in its list only if it fits there. First and
// second legs are positions in the lists given (first, second): sorting and grouping them moves
// 4 bytes a flight rather than the flight.
type joinInput struct {
	first, second []flight.Flight // fromSrc and toDst as given
	directs       []flight.Flight
	byVia         map[string][]int32 // first legs (in first) by connecting airport, by arrival
	seconds       []int32            // second legs (in second)
	minConn       time.Duration
}

// prepare reads fromSrc and toDst as Build documents.
func prepare(q Query, fromSrc, toDst []flight.Flight) joinInput {
	in := joinInput{first: fromSrc, second: toDst, byVia: make(map[string][]int32), minConn: q.minConnection()}
	if q.Src == q.Dst {
		return in
	}
	allowed := q.sellerFilter()
	fits := func(f *flight.Flight) bool {
		return flight.DateOf(f.Departure) == q.Date && allowed(f.Seller)
	}
	firstSeen := newKeySet(len(fromSrc))
	for i := range fromSrc {
		f := &fromSrc[i]
		if f.Src != q.Src || f.Dst == q.Src || !fits(f) || !firstSeen.add(f.Key()) {
			continue
		}
		if f.Dst == q.Dst {
			in.directs = append(in.directs, *f)
			continue
		}
		in.byVia[f.Dst] = append(in.byVia[f.Dst], int32(i))
	}
	for _, firsts := range in.byVia {
		slices.SortFunc(firsts, func(a, b int32) int { return fromSrc[a].Arrival.Compare(fromSrc[b].Arrival) })
	}
	secondSeen := newKeySet(len(toDst))
	in.seconds = make([]int32, 0, len(toDst))
	for i := range toDst {
		f2 := &toDst[i]
		if f2.Dst != q.Dst || f2.Src == q.Dst || !fits(f2) || !secondSeen.add(f2.Key()) {
			continue
		}
		if f2.Src == q.Src {
			if !firstSeen.has(f2.Key()) { // a direct flight missing from fromSrc
				in.directs = append(in.directs, *f2)
			}
			continue
		}
		in.seconds = append(in.seconds, int32(i))
	}
	return in
}

// firstsBefore is the first legs f2 can follow: landing where it leaves, at least the minimum
// connection before it departs (a prefix of the group, found by one binary search).
func (in *joinInput) firstsBefore(f2 *flight.Flight) []int32 {
	firsts := in.byVia[f2.Src]
	latest := f2.Departure.Add(-in.minConn) // f1 must arrive at or before this
	n := sort.Search(len(firsts), func(i int) bool { return in.first[firsts[i]].Arrival.After(latest) })
	return firsts[:n]
}

// arena hands out leg slices carved from shared chunks, so that a search with thousands of
// trips makes a few allocations instead of one per trip. Each slice is capped at its own length,
// so appending to one never overwrites another.
type arena struct{ free []flight.Flight }

const arenaChunk = 512

func (a *arena) one(f flight.Flight) []flight.Flight {
	s := a.carve(1)
	s[0] = f
	return s
}

func (a *arena) two(f1, f2 flight.Flight) []flight.Flight {
	s := a.carve(2)
	s[0], s[1] = f1, f2
	return s
}

func (a *arena) carve(n int) []flight.Flight {
	if len(a.free) < n {
		a.free = make([]flight.Flight, arenaChunk)
	}
	s := a.free[:n:n]
	a.free = a.free[n:]
	return s
}
