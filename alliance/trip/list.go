package trip

import (
	"cmp"
	"slices"

	"flightalliance/alliance/flight"
)

// List is a list of trips in the price order (Compare), kept compactly: each distinct flight
// once, and each trip as its price and the refs of its legs among those flights. No trip holds a
// pointer, so a garbage collection marks a list of thousands of trips as the few hundred flights
// they are made of — not as a copy of each leg (four strings and two times apiece), which is what
// a delegate keeping a list a query (the cache) spent its collections' marking on.
//
// A List answers what a page of the list needs — the trips a filter keeps in an order
// (SelectIndex), each trip's price and legs — without making its trips again. It is read-only
// and safe for concurrent use.
type List struct {
	flights []flight.Flight // the distinct flights, in the order the trips first name them
	rows    []row
}

// row is one trip of a List: its price and its legs' refs, each the position of the leg's flight
// in flights plus one; a ref of 0 is no leg (a trip has one or two legs).
type row struct {
	price flight.Cents
	refs  [2]int32
}

// NewList keeps trips — in the price order, as Build and Cheapest return them — as a List. Legs
// are the same flight when their refs (Trip.Refs) are equal, if every leg has one, as the trips
// of one Build or Cheapest do; otherwise when their flights are equal. It panics on a trip of more
// than two legs, which neither makes.
func NewList(trips []Trip) List {
	seen, distinct := newFlightIndex(trips)
	l := List{rows: make([]row, len(trips)), flights: make([]flight.Flight, 0, distinct)}
	for i := range trips {
		t := &trips[i]
		if len(t.Legs) > len(t.Refs) {
			panic("trip: a List keeps trips of at most two legs")
		}
		l.rows[i].price = t.Price
		for j := range t.Legs {
			ref, ok := seen.find(t, j, l.flights)
			if !ok {
				l.flights = append(l.flights, t.Legs[j])
				ref = int32(len(l.flights))
				seen.add(t, j, ref)
			}
			l.rows[i].refs[j] = ref
		}
	}
	return l
}

// flightIndex finds the ref in a List being made of a trip's leg: by the leg's ref in the trips
// (byRef[ref] is the List's ref; -1 before it has one) when every leg has one, else by the
// flight's key and contents.
type flightIndex struct {
	byRef []int32
	byKey map[flight.Key]int32
}

// newFlightIndex returns the index for trips and, by refs, how many distinct flights they have,
// so that a List's flights take one allocation of the size they need: a whole list's flights are
// up to a thousand of 128 bytes, and growing them by appending allocated twice that. (By keys it
// returns 0: the flights grow as they come.)
func newFlightIndex(trips []Trip) (x flightIndex, distinct int) {
	top := int32(0)
	for i := range trips {
		for j := range trips[i].Legs {
			if j >= len(trips[i].Refs) || trips[i].Refs[j] <= 0 {
				return flightIndex{byKey: map[flight.Key]int32{}}, 0
			}
			top = max(top, trips[i].Refs[j])
		}
	}
	x.byRef = make([]int32, top+1)
	for i := range trips {
		for _, r := range trips[i].Refs[:len(trips[i].Legs)] {
			if x.byRef[r] == 0 {
				x.byRef[r] = -1
				distinct++
			}
		}
	}
	return x, distinct
}

// find is the List's ref of leg j of t, if it has one yet; flights are the List's so far.
func (x flightIndex) find(t *Trip, j int, flights []flight.Flight) (int32, bool) {
	if x.byKey == nil {
		ref := x.byRef[t.Refs[j]]
		return ref, ref > 0
	}
	ref, ok := x.byKey[t.Legs[j].Key()]
	return ref, ok && flights[ref-1] == t.Legs[j]
}

// add records ref as the List's ref of leg j of t. A second flight of one key keeps the first's
// entry: each leg of it is a flight of its own.
func (x flightIndex) add(t *Trip, j int, ref int32) {
	if x.byKey == nil {
		x.byRef[t.Refs[j]] = ref
		return
	}
	if _, ok := x.byKey[t.Legs[j].Key()]; !ok {
		x.byKey[t.Legs[j].Key()] = ref
	}
}

// Len is the number of trips.
func (l List) Len() int { return len(l.rows) }

// Price is the price of trip i.
func (l List) Price(i int) flight.Cents { return l.rows[i].price }

// NumLegs is the number of legs of trip i: 1 or 2 (0 only for a trip made without legs).
func (l List) NumLegs(i int) int {
	switch r := l.rows[i].refs; {
	case r[0] == 0:
		return 0
	case r[1] == 0:
		return 1
	}
	return 2
}

// Ref is the ref of leg j of trip i: its flight's position among the List's distinct flights,
// plus one (at most Flights). Two legs are the same flight exactly when their refs are equal.
func (l List) Ref(i, j int) int32 { return l.rows[i].refs[j] }

// Flights is the number of distinct flights of the List's trips.
func (l List) Flights() int { return len(l.flights) }

// Leg is leg j of trip i, which the caller must not change.
func (l List) Leg(i, j int) *flight.Flight { return &l.flights[l.rows[i].refs[j]-1] }

// Trip is trip i made again: its legs are copies, its Refs the List's.
func (l List) Trip(i int) Trip {
	t := Trip{Price: l.rows[i].price, Refs: l.rows[i].refs, Legs: make([]flight.Flight, l.NumLegs(i))}
	for j := range t.Legs {
		t.Legs[j] = *l.Leg(i, j)
	}
	return t
}

// Trips is every trip made again (Trip).
func (l List) Trips() []Trip {
	out := make([]Trip, l.Len())
	for i := range out {
		out[i] = l.Trip(i)
	}
	return out
}

// SelectIndex is SelectIndex of the List's trips: the positions of the first max trips (all when
// max <= 0) that f keeps, in order o, and how many it keeps in all — or, when idx is nil (no
// filter, the price order), the first max trips as they are. Trips equal in o's key are in the
// price order, which is their order in the List.
func (l List) SelectIndex(f Filter, o Order, max int) (idx []int, total int) {
	if f == (Filter{}) && o == ByPrice {
		return nil, l.Len()
	}
	idx = make([]int, 0, l.Len())
	for i := range l.rows {
		if f.keeps(l.NumLegs(i), l.rows[i].price) {
			idx = append(idx, i)
		}
	}
	total = len(idx)
	if o != ByPrice {
		slices.SortFunc(idx, func(a, b int) int {
			if c := l.compareKeys(o, a, b); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
	}
	return idx[:pageLen(len(idx), max)], total
}

// compareKeys compares trips a and b by the key of o (not ByPrice).
func (l List) compareKeys(o Order, a, b int) int {
	first := func(i int) *flight.Flight { return l.Leg(i, 0) }
	last := func(i int) *flight.Flight { return l.Leg(i, l.NumLegs(i)-1) }
	switch o {
	case ByDuration:
		return cmp.Compare(last(a).Arrival.Sub(first(a).Departure), last(b).Arrival.Sub(first(b).Departure))
	case ByDeparture:
		return first(a).Departure.Compare(first(b).Departure)
	case ByArrival:
		return last(a).Arrival.Compare(last(b).Arrival)
	}
	return 0
}
