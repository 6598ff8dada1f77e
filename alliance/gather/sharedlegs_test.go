package gather

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/coord"
	"flightalliance/soap"
)

// TestShareLegsAnswers: a getTrips asking ShareLegs is answered with each leg once and the trips
// naming them; inlined again it is the answer without ShareLegs, for whole lists and pages, cached
// or not, ETag included.
func TestShareLegsAnswers(t *testing.T) {
	a := hubSchedule(8)
	for _, cacheSize := range []int{0, 16} {
		s := New(Config{Alliance: "star", MinConnection: 30 * time.Minute, CacheSize: cacheSize}, a, ledger.NewSeats("star"), testMetrics())
		for _, req := range []soap.GetTripsRequest{{}, {MaxTrips: 5}, {Sort: "duration", MaxTrips: 300}} {
			req.Src, req.Dst, req.Date = "TLV", "JFK", "2026-12-01"
			inline, err := s.GetTrips(context.Background(), &req)
			if err != nil {
				t.Fatal(err)
			}
			req.ShareLegs = true
			shared, err := s.GetTrips(context.Background(), &req)
			if err != nil {
				t.Fatal(err)
			}
			legs := 0
			for _, tr := range shared.Trips {
				if len(tr.Legs) > 0 {
					t.Fatalf("cache %d, %+v: a trip with inline legs in a shared answer", cacheSize, req)
				}
				legs += len(tr.LegIndexes)
			}
			if len(shared.SharedLegs) == 0 || len(shared.SharedLegs) > legs || req.MaxTrips == 0 && len(shared.SharedLegs) >= legs {
				t.Errorf("cache %d, %+v: %d shared legs for %d legs of trips: want some, fewer for the whole list", cacheSize, req, len(shared.SharedLegs), legs)
			}
			if err := shared.InlineLegs(); err != nil {
				t.Fatal(err)
			}
			if len(shared.MissingSellers)+len(inline.MissingSellers) == 0 {
				shared.MissingSellers, inline.MissingSellers = nil, nil // a cache hit's nil, a miss's empty: the same on the wire
			}
			if !reflect.DeepEqual(shared, inline) {
				t.Errorf("cache %d, %+v: the shared answer inlined is not the inline answer", cacheSize, req)
			}
		}
	}
}

// TestCachedSharedFormIsNotHandedOut: the whole list of a cached list, in the shared form, with
// seats booked, shows the seats left; the caller may change its answer (inline it) and the list's
// shared form is still what it was made, for the next answer.
func TestCachedSharedFormIsNotHandedOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	seats := ledger.NewSeats("star")
	seats.Apply(coord.Event{Type: coord.EventResync, Children: []coord.Child{{Name: "LY/LY1", Value: []byte("3")}}})
	trips := randomList(rng, 40)
	list := newTripList(trips)
	whole := controls{order: trip.ByPrice}
	for range 2 {
		page, total := list.sharedPage(whole, "star", true)
		resp := &soap.GetTripsResponse{Trips: page.trips, Total: total}
		resp.SharedLegs, _ = legsWithSeatsLeft(page.legs, seats)
		if err := resp.InlineLegs(); err != nil {
			t.Fatal(err)
		}
		want, _ := withSeatsLeft(toWireTrips(trips, "star"), seats)
		if total != len(trips) || !reflect.DeepEqual(resp.Trips, want) {
			t.Fatalf("the cached whole list, shared, with seats left: %d of %d trips, not the inline answer", len(resp.Trips), total)
		}
		if !reflect.DeepEqual(list.shared, toSharedTrips(trips, "star")) {
			t.Fatal("answering from the cached shared form changed it")
		}
	}
}

// TestSharedTripsByRefIsByKey: the trips of a join, their legs told apart by their refs, take the
// same shared form as the same trips without refs (by key), once inlined; by refs each distinct
// flight is one leg — two flights of one key that differ (inconsistent holders: LY001 out of TLV
// and into JFK) two legs, where by key the second one is a leg at each of its trips.
func TestSharedTripsByRefIsByKey(t *testing.T) {
	clash := flight.Flight{Number: "LY001", Seller: "LY", Src: "CDG", Dst: "JFK", Departure: hubDay.Add(20 * time.Hour),
		Arrival: hubDay.Add(22 * time.Hour), Price: 100, Seats: 3}
	trips, bare := hubTrips(12, clash)
	if len(trips) < 100 {
		t.Fatalf("only %d trips", len(trips))
	}
	byRef, byKey := toSharedTrips(trips, "star"), toSharedTrips(bare, "star")
	inline := func(st sharedTrips) []soap.Trip {
		resp := &soap.GetTripsResponse{Trips: st.trips, SharedLegs: st.legs}
		if err := resp.InlineLegs(); err != nil {
			t.Fatal(err)
		}
		return resp.Trips
	}
	if got, want := inline(byRef), inline(byKey); !reflect.DeepEqual(got, want) {
		t.Fatal("the shared form by refs, inlined, is not the shared form by keys, inlined")
	}
	distinct := map[flight.Flight]bool{}
	for _, tr := range trips {
		for _, f := range tr.Legs {
			distinct[f] = true
		}
	}
	if len(byRef.legs) != len(distinct) || len(byKey.legs) < len(distinct) {
		t.Fatalf("%d legs by refs, %d by keys, for %d distinct flights", len(byRef.legs), len(byKey.legs), len(distinct))
	}
	if want := inline(sharedTrips{trips: toWireTrips(trips, "star")}); !reflect.DeepEqual(inline(byRef), want) {
		t.Fatal("the shared form, inlined, is not the trips' SOAP form")
	}
}
