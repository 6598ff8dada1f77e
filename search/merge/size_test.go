package merge

import (
	"testing"

	"flightalliance/soap"
)

// TestSizeHintFitsAnswers: the hint holds a merged answer's JSON and is not far above it, so
// writeAnswer allocates its buffer once.
func TestSizeHintFitsAnswers(t *testing.T) {
	leg := soap.Leg{Flight: "LY001", Seller: "LY", Alliance: "star", Src: "TLV", Dst: "LHR",
		Departure: "2026-12-01T08:00:00Z", Arrival: "2026-12-01T13:10:00Z", Price: "300.00", Seats: 180}
	second := leg
	second.Flight, second.Src, second.Dst, second.Price = "BA212", "LHR", "JFK", "412.50"
	var trips []soap.Trip
	for i := range 2000 {
		legs := []soap.Leg{leg}
		if i%4 != 0 {
			legs = append(legs, second)
		}
		trips = append(trips, soap.Trip{Price: "712.50", Legs: legs})
	}
	for _, n := range []int{0, 1, 20, 2000} {
		q := Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}
		answers := []DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{Alliance: "star", Complete: true, Trips: trips[:n], Total: n}},
			{Alliance: "sky", Err: errTest}}
		m := MergeWindow(q, answers)
		got, hint := len(m.AppendJSON(nil)), m.SizeHint()
		if got > hint || hint > got+got/20+1024 {
			t.Errorf("%d trips: %d bytes of JSON, size hint %d: want the hint at or above, within a twentieth", n, got, hint)
		}
	}
}
