package gather

import (
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
)

// BenchmarkSharedTrips converts a whole list of thousands of trips to the shared form: /refs as
// the join numbered its legs (a slice indexed by ref), /keys the same trips without refs (a map
// by flight key, the way of trips made otherwise).
func BenchmarkSharedTrips(b *testing.B) {
	trips, bare := hubTrips(120)
	for _, c := range []struct {
		name  string
		trips []trip.Trip
	}{{"refs", trips}, {"keys", bare}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				toSharedTrips(c.trips, "star")
			}
			b.ReportMetric(float64(len(c.trips)), "trips/op")
		})
	}
}

// hubTrips are the trips from TLV to JFK on hubSchedule(perDay)'s day, as Build makes them
// (numbered: Refs), the same without refs (bare); extra flights are handed to the join as
// arriving at JFK.
func hubTrips(perDay int, extra ...flight.Flight) (trips, bare []trip.Trip) {
	var all []flight.Flight
	for _, fs := range hubSchedule(perDay).flights {
		all = append(all, fs...)
	}
	q := trip.Query{Src: "TLV", Dst: "JFK", Date: flight.DateOf(hubDay), MinConnection: 30 * time.Minute}
	trips = trip.Build(q, all, append(all, extra...))
	bare = make([]trip.Trip, len(trips))
	for i, tr := range trips {
		bare[i] = trip.Trip{Legs: tr.Legs, Price: tr.Price}
	}
	return trips, bare
}

// hubDay is hubSchedule's day.
var hubDay = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
