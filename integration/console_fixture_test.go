package integration

import (
	"context"
	"flightalliance/alliance/flight"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

// richestQuery is the query of testDate with the most trips in the reference, and its trips.
func richestQuery(data map[string][]flight.Flight) (query, []string) {
	airports := map[string]bool{}
	for _, fs := range data {
		for _, f := range fs {
			airports[f.Src], airports[f.Dst] = true, true
		}
	}
	var best query
	var trips []string
	for _, src := range slices.Sorted(maps.Keys(airports)) {
		for _, dst := range slices.Sorted(maps.Keys(airports)) {
			if src == dst {
				continue
			}
			q := query{src: src, dst: dst, date: testDate}
			if ts := referenceTrips(data, q, 30*time.Minute); len(ts) > len(trips) {
				best, trips = q, ts
			}
		}
	}
	return best, trips
}

// bookingStatus is a booking's status as the REST API reads it.
func bookingStatus(ctx context.Context, t *testing.T, w *bookingWorld, id string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	ans := w.api.get(ctx, id)
	b, err := ans.booking()
	if err != nil {
		t.Fatalf("GET booking %s: %v (%v)", id, err, ans)
	}
	return b.Status
}

// firstLeg is the flight of a reference trip's first leg.
func firstLeg(t *testing.T, data map[string][]flight.Flight, trip string) flight.Flight {
	t.Helper()
	number := strings.Split(strings.Fields(trip)[1], ">")[0]
	for _, s := range slices.Sorted(maps.Keys(data)) {
		for _, f := range data[s] {
			if f.Number == number {
				return f
			}
		}
	}
	t.Fatalf("no flight %s in the data", number)
	return flight.Flight{}
}

// tripPrice is what seats of a reference trip cost, as the API writes prices.
func tripPrice(t *testing.T, trip string, seats int) string {
	t.Helper()
	var units, cents int64
	if _, err := fmt.Sscanf(strings.Fields(trip)[0], "%d.%d", &units, &cents); err != nil {
		t.Fatalf("price of %q: %v", trip, err)
	}
	total := (units*100 + cents) * int64(seats)
	return fmt.Sprintf("%d.%02d", total/100, total%100)
}
