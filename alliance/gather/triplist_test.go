package gather

import (
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

// randomList is a price-sorted list of trips from a handful of flights.
func randomList(rng *rand.Rand, n int) []trip.Trip {
	day := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	var flights []flight.Flight
	for i := range 8 {
		dep := day.Add(time.Duration(rng.IntN(10)) * time.Hour)
		flights = append(flights, flight.Flight{Number: "LY" + string(rune('0'+i)), Seller: "LY", Src: "TLV", Dst: "FRA",
			Departure: dep, Arrival: dep.Add(time.Duration(1+rng.IntN(4)) * time.Hour), Price: flight.Cents(100 * (1 + rng.IntN(5))), Seats: 5 + rng.IntN(5)})
	}
	trips := make([]trip.Trip, n)
	for i := range trips {
		legs := []flight.Flight{flights[rng.IntN(len(flights))]}
		if rng.IntN(2) == 0 {
			legs = append(legs, flights[rng.IntN(len(flights))])
		}
		var p flight.Cents
		for _, f := range legs {
			p += f.Price
		}
		trips[i] = trip.Trip{Legs: legs, Price: p}
	}
	trip.Sort(trips)
	return trips
}

// TestTripListPage: a page from the cached SOAP form, with the seats left filled in, is exactly
// the page trip.Select picks converted afresh, for every control, and so is the page in the
// shared form (ShareLegs) once inlined; the cached forms are not changed.
func TestTripListPage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	seats := ledger.NewSeats("star")
	seats.Apply(coord.Event{Type: coord.EventResync, Children: []coord.Child{{Name: "LY/LY1", Value: []byte("3")}, {Name: "LY/LY2", Value: []byte("99")}}})
	for range 300 {
		trips := randomList(rng, rng.IntN(30))
		list := newTripList(trips)
		ctl := controls{filter: trip.Filter{Nonstop: rng.IntN(3) == 0, MaxPrice: flight.Cents(100 * rng.IntN(10)), HasMaxPrice: rng.IntN(2) == 0},
			order: trip.Order(rng.IntN(4)), max: rng.IntN(8)}
		want, wantTotal := trip.Select(trips, ctl.filter, ctl.order, ctl.max)
		for i := range want {
			legs := make([]flight.Flight, len(want[i].Legs))
			for j, f := range want[i].Legs {
				f.Seats = seats.Left(f.Seller, f.Number, f.Seats)
				legs[j] = f
			}
			want[i].Legs = legs
		}
		wantWire := toWireTrips(want, "star")
		for _, cached := range []bool{true, false} {
			page, total := list.page(ctl, "star", cached)
			got, _ := withSeatsLeft(page, seats)
			if total != wantTotal || !reflect.DeepEqual(got, wantWire) {
				t.Fatalf("cached=%v controls %+v: total %d (want %d)\n got %+v\nwant %+v", cached, ctl, total, wantTotal, got, wantWire)
			}
			shared, total := list.sharedPage(ctl, "star", cached)
			resp := &soap.GetTripsResponse{Trips: shared.trips}
			resp.SharedLegs, _ = legsWithSeatsLeft(shared.legs, seats)
			if err := resp.InlineLegs(); err != nil {
				t.Fatal(err)
			}
			if total != wantTotal || !reflect.DeepEqual(resp.Trips, wantWire) && len(wantWire)+len(resp.Trips) > 0 {
				t.Fatalf("shared, cached=%v controls %+v: total %d (want %d)\n got %+v\nwant %+v", cached, ctl, total, wantTotal, resp.Trips, wantWire)
			}
		}
		if list.wire != nil && !reflect.DeepEqual(list.wire, toWireTrips(trips, "star")) {
			t.Fatal("filling in the seats left changed the cached form")
		}
		if list.shared.trips != nil && !reflect.DeepEqual(list.shared, toSharedTrips(trips, "star")) {
			t.Fatal("filling in the seats left changed the cached shared form")
		}
	}
}
