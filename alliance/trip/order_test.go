package trip

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

// randomTrips makes n trips of one day from a few airports, prices and times, so that ties on
// every key are common.
func randomTrips(rng *rand.Rand, n int) []Trip {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	leg := func(i int) flight.Flight {
		dep := day.Add(time.Duration(rng.IntN(8)) * time.Hour)
		return flight.Flight{Number: string(rune('A'+rng.IntN(4))) + "1", Seller: []string{"LY", "UA"}[rng.IntN(2)],
			Src: "TLV", Dst: "JFK", Departure: dep, Arrival: dep.Add(time.Duration(1+rng.IntN(3)) * time.Hour),
			Price: flight.Cents(100 * rng.IntN(4)), Seats: i}
	}
	trips := make([]Trip, n)
	for i := range trips {
		legs := []flight.Flight{leg(i)}
		if rng.IntN(2) == 0 {
			second := leg(i)
			second.Departure = legs[0].Arrival.Add(time.Hour)
			second.Arrival = second.Departure.Add(time.Duration(1+rng.IntN(3)) * time.Hour)
			legs = append(legs, second)
		}
		var price flight.Cents
		for _, l := range legs {
			price += l.Price
		}
		trips[i] = Trip{Legs: legs, Price: price}
	}
	return trips
}

// TestOrdersAreTotalAndKeyed: every order sorts by its key first and is a total order (sorting
// any permutation gives the same list; only identical trips compare equal).
func TestOrdersAreTotalAndKeyed(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	key := map[Order]func(Trip) time.Duration{
		ByDuration:  Trip.Duration,
		ByDeparture: func(t Trip) time.Duration { return t.Legs[0].Departure.Sub(time.Time{}) },
		ByArrival:   func(t Trip) time.Duration { return t.Arrival().Sub(time.Time{}) },
	}
	for range 200 {
		trips := randomTrips(rng, 30)
		for _, o := range []Order{ByPrice, ByDuration, ByDeparture, ByArrival} {
			a := slices.Clone(trips)
			slices.SortFunc(a, o.Compare)
			b := slices.Clone(trips)
			rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			slices.SortFunc(b, o.Compare)
			for i := range a {
				if o.Compare(a[i], b[i]) != 0 {
					t.Fatalf("%s: two sorts of one list differ at %d", o, i)
				}
				if i > 0 && key[o] != nil && key[o](a[i-1]) > key[o](a[i]) {
					t.Fatalf("%s: not sorted by its key at %d", o, i)
				}
				if i > 0 && o.Compare(a[i-1], a[i]) == 0 && Compare(a[i-1], a[i]) != 0 {
					t.Fatalf("%s: distinct trips compare equal", o)
				}
			}
		}
	}
}

// TestSelectIsFilterSortCut checks Select against the obvious implementation.
func TestSelectIsFilterSortCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		trips := randomTrips(rng, rng.IntN(40))
		Sort(trips)
		f := Filter{Nonstop: rng.IntN(3) == 0, MaxPrice: flight.Cents(100 * rng.IntN(7)), HasMaxPrice: rng.IntN(2) == 0}
		o := Order(rng.IntN(4))
		max := rng.IntN(10)
		before := slices.Clone(trips)
		page, total := Select(trips, f, o, max)
		var want []Trip
		for _, tr := range trips {
			if (!f.Nonstop || len(tr.Legs) == 1) && (!f.HasMaxPrice || tr.Price <= f.MaxPrice) {
				want = append(want, tr)
			}
		}
		if total != len(want) {
			t.Fatalf("total %d, want %d", total, len(want))
		}
		slices.SortFunc(want, o.Compare)
		if max > 0 && len(want) > max {
			want = want[:max]
		}
		if len(page) != len(want) {
			t.Fatalf("%d trips, want %d", len(page), len(want))
		}
		for i := range want {
			if o.Compare(page[i], want[i]) != 0 {
				t.Fatalf("trip %d differs", i)
			}
		}
		for i := range before {
			if Compare(before[i], trips[i]) != 0 {
				t.Fatal("Select changed its input")
			}
		}
	}
}

func TestParseOrder(t *testing.T) {
	for s, want := range map[string]Order{"": ByPrice, "price": ByPrice, "duration": ByDuration, "departure": ByDeparture, "arrival": ByArrival} {
		if o, err := ParseOrder(s); err != nil || o != want || (s != "" && o.String() != s) {
			t.Errorf("ParseOrder(%q) = %v, %v", s, o, err)
		}
	}
	for _, s := range []string{"Price", "cheapest", " price"} {
		if _, err := ParseOrder(s); err == nil {
			t.Errorf("ParseOrder(%q) accepted it", s)
		}
	}
}
