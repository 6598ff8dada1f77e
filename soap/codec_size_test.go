package soap

import (
	"strconv"
	"testing"
)

// TestSizeHintFitsPlainResponses: for responses whose text needs no escaping — what machines
// send — the hint holds the whole encoded response and is not far above it, so the encoder's
// buffer is allocated once.
func TestSizeHintFitsPlainResponses(t *testing.T) {
	leg := func(i int) Leg {
		return Leg{Flight: "LY" + strconv.Itoa(100+i), Seller: "LY", Alliance: "star", Src: "TLV", Dst: "JFK",
			Departure: "2026-12-01T08:00:00Z", Arrival: "2026-12-01T19:10:00Z", Price: "512.00", Seats: 180 + i}
	}
	trips := &GetTripsResponse{Alliance: "star", Complete: true, Total: 3000, ETag: "1-2-3-4"}
	for i := range 3000 {
		legs := []Leg{leg(i)}
		if i%3 != 0 {
			legs = append(legs, leg(i+1))
		}
		trips.Trips = append(trips.Trips, Trip{Price: "1024.00", Legs: legs})
	}
	for name, resp := range map[string]any{
		"getTripsResponse":           trips,
		"getRelevantFlightsBySrc":    &RelevantFlightsResponse{Sellers: []string{"LY"}, Flights: sampleFlights(2000)},
		"sendPrimarySellerResponse":  &SellerPage{Seller: "LY", Version: "v7", Flights: sampleFlights(500), NextCursor: "500"},
		"getTripsResponse, no trips": &GetTripsResponse{Alliance: "star", Complete: true},
		"getTripsResponse, shared":   trips.ShareLegs(),
	} {
		body, ok := appendResponseEnvelope(nil, name, resp)
		if !ok {
			t.Fatalf("%s: the fast encoder does not know %T", name, resp)
		}
		encoded := len(body) - len(appendResponseStart(nil, name)) - len(envClose)
		hint := sizeHint(resp)
		if encoded > hint || hint > encoded+encoded/5+512 {
			t.Errorf("%s: %d bytes encoded, size hint %d: want the hint at or above, within a fifth", name, encoded, hint)
		}
	}
	if got := sizeHint(&Fault{}); got != 0 {
		t.Errorf("a type without a hint: %d, want 0", got)
	}
}
