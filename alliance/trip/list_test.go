package trip

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"flightalliance/alliance/flight"
)

// checkList fails t unless l keeps trips: the same trips in the same order, made again, each
// distinct flight once, and two legs the same flight exactly when their refs are equal.
func checkList(t interface{ Fatalf(string, ...any) }, l List, trips []Trip) {
	if got := l.Trips(); !equalTrips(got, trips) {
		t.Fatalf("the List's trips\n%v\nwant\n%v", describe(got), describe(trips))
	}
	flightOf := map[int32]flight.Flight{}
	refOf := map[flight.Flight]int32{}
	for i := range l.Len() {
		if l.Price(i) != trips[i].Price || l.NumLegs(i) != len(trips[i].Legs) {
			t.Fatalf("trip %d: price %v, %d legs; want %v, %d", i, l.Price(i), l.NumLegs(i), trips[i].Price, len(trips[i].Legs))
		}
		for j := range l.NumLegs(i) {
			r, f := l.Ref(i, j), *l.Leg(i, j)
			if r < 1 || int(r) > l.Flights() {
				t.Fatalf("trip %d leg %d: ref %d not in 1..%d", i, j, r, l.Flights())
			}
			if g, ok := flightOf[r]; ok && g != f {
				t.Fatalf("ref %d names two flights: %+v and %+v", r, g, f)
			}
			if s, ok := refOf[f]; ok && s != r && trips[i].Refs[j] > 0 {
				t.Fatalf("flight %+v has refs %d and %d", f, s, r)
			}
			flightOf[r], refOf[f] = f, r
		}
	}
	if len(flightOf) != l.Flights() {
		t.Fatalf("%d of the List's %d flights are legs of its trips", len(flightOf), l.Flights())
	}
}

// A List keeps a Build's trips as they are: by their refs, or — refs dropped — by their flights.
func TestListKeepsTheTripsOfABuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		schedule := genSchedule(t)
		q := genQuery(t)
		var all []flight.Flight
		for _, code := range propSellers {
			all = append(all, schedule[code]...)
		}
		trips := Build(q, all, all)
		checkList(t, NewList(trips), trips)
		bare := slices.Clone(trips)
		for i := range bare {
			bare[i].Refs = [2]int32{}
		}
		byKey := NewList(bare)
		checkList(t, byKey, bare)
		byRef := NewList(trips)
		if byKey.Flights() != byRef.Flights() {
			t.Fatalf("%d flights kept by key, %d by ref: each distinct flight once either way", byKey.Flights(), byRef.Flights())
		}
		if cap(byRef.flights) != len(byRef.flights) {
			t.Fatalf("%d flights kept in room for %d: by refs their number is known", len(byRef.flights), cap(byRef.flights))
		}
	})
}

// Flights of one key that differ (made otherwise than by one Build) are kept apart.
func TestListKeepsFlightsOfOneKeyThatDiffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		trips := randomTrips(rng, rng.IntN(40))
		Sort(trips)
		checkList(t, NewList(trips), trips)
	}
}

// SelectIndex of a List picks the trips Select picks from the trips it keeps, in the same order.
func TestListSelectIsSelect(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 1000 {
		trips := randomTrips(rng, rng.IntN(40))
		Sort(trips)
		l := NewList(trips)
		f := Filter{Nonstop: rng.IntN(3) == 0, MaxPrice: flight.Cents(100 * rng.IntN(7)), HasMaxPrice: rng.IntN(2) == 0}
		if rng.IntN(4) == 0 {
			f = Filter{}
		}
		o, max := Order(rng.IntN(4)), rng.IntN(10)
		want, wantTotal := Select(trips, f, o, max)
		idx, total := l.SelectIndex(f, o, max)
		var got []Trip
		if idx == nil {
			got = l.Trips()[:min(l.Len(), pageLen(l.Len(), max))]
		}
		for _, i := range idx {
			got = append(got, l.Trip(i))
		}
		if total != wantTotal || !slices.EqualFunc(got, want, func(a, b Trip) bool { return o.Compare(a, b) == 0 }) {
			t.Fatalf("filter %+v, order %v, max %d: %d of %d\n%v\nwant %d of %d\n%v", f, o, max,
				len(got), total, describe(got), len(want), wantTotal, describe(want))
		}
	}
}

func TestListRefusesATripOfThreeLegs(t *testing.T) {
	leg := flight.Flight{Number: "LY1", Seller: "LY", Src: "TLV", Dst: "ATH"}
	defer func() {
		if recover() == nil {
			t.Fatal("NewList kept a trip of three legs")
		}
	}()
	NewList([]Trip{{Legs: []flight.Flight{leg, leg, leg}}})
}
