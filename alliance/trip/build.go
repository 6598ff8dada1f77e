package trip

import (
	"cmp"
	"slices"
	"sort"
	"time"

	"flightalliance/alliance/flight"
)

// Build returns the trips of docs/api.md for q, sorted (see Compare):
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
	found := make([]joined, 0, n)
	for _, d := range in.directs {
		f := in.direct(d)
		found = append(found, joined{price: f.Price, arrives: f.Arrival.Unix(), one: d, two: -1})
	}
	for i, j := range in.seconds {
		f2 := &in.second[j]
		arrives := f2.Arrival.Unix()
		for _, k := range firsts[i] {
			found = append(found, joined{price: in.first[k].Price + f2.Price, arrives: arrives, one: k, two: j})
		}
	}
	legs := arena{free: make([]flight.Flight, 2*n-len(in.directs))} // every leg, in one allocation
	trips := make([]Trip, len(found))
	for i, k := range in.order(found) {
		trips[i] = in.trip(found[k], &legs)
	}
	return trips
}

// joined is a trip the join found, before it is made: its price, when it arrives (in whole
// seconds: trips that tie on both are compared whole) and its flights — a direct flight (one, as
// in directs; two is −1) or a connection's first leg (one, in first) and second (two, in second).
// They are sorted as words (order) and made in that order: the sort reads no leg for most trips.
type joined struct {
	price    flight.Cents
	arrives  int64
	one, two int32
}

// compare orders found trips as Compare orders the trips they make.
func (in *joinInput) compare(a, b joined) int {
	if c := cmp.Compare(a.price, b.price); c != 0 {
		return c
	}
	if c := cmp.Compare(a.arrives, b.arrives); c != 0 {
		return c
	}
	var la, lb [2]flight.Flight
	return Compare(Trip{Legs: in.legs(a, &la), Price: a.price}, Trip{Legs: in.legs(b, &lb), Price: b.price})
}

// legs are t's flights, copied into buf.
func (in *joinInput) legs(t joined, buf *[2]flight.Flight) []flight.Flight {
	if t.two < 0 {
		buf[0] = *in.direct(t.one)
		return buf[:1]
	}
	buf[0], buf[1] = in.first[t.one], in.second[t.two]
	return buf[:2]
}

// trip makes the trip t, its legs carved from legs.
func (in *joinInput) trip(t joined, legs *arena) Trip {
	if t.two < 0 {
		return Trip{Legs: legs.one(*in.direct(t.one)), Price: t.price, Refs: [2]int32{in.ref(t.one)}}
	}
	return Trip{Legs: legs.two(in.first[t.one], in.second[t.two]), Price: t.price, Refs: in.refs(t.one, t.two)}
}

// joinInput is a query's flights made ready for the join: the direct flights, the first legs of
// connections grouped by where they land (each group sorted by arrival), and the second legs —
// every flight once (its first appearance), each in its list only if it fits there. Flights are
// positions in the lists given (first, second): sorting and grouping them moves 4 bytes a flight
// rather than the flight. A direct flight is a position in first, or len(first) plus its
// position in second (one missing from first): the same number as its ref, less one.
type joinInput struct {
	first, second []flight.Flight // fromSrc and toDst as given
	directs       []int32
	byVia         map[string][]int32 // first legs (in first) by connecting airport, by arrival
	seconds       []int32            // second legs (in second)
	minConn       time.Duration
}

// direct is the direct flight at d (an entry of directs).
func (in *joinInput) direct(d int32) *flight.Flight {
	if n := int32(len(in.first)); d >= n {
		return &in.second[d-n]
	}
	return &in.first[d]
}

// ref is the Refs number of the flight at position p of first, or of second at p − len(first).
func (in *joinInput) ref(p int32) int32 { return p + 1 }

// refs are the Refs of the connection of first leg i (in first) and second leg j (in second).
func (in *joinInput) refs(i, j int32) [2]int32 {
	return [2]int32{in.ref(i), in.ref(int32(len(in.first)) + j)}
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
			in.directs = append(in.directs, int32(i))
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
				in.directs = append(in.directs, int32(len(fromSrc)+i))
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
