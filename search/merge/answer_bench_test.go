package merge

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"flightalliance/soap"
)

// bigAnswer is a delegate's answer of n trips shaped like the generated data's: a third direct,
// the rest one-stop connections, in the price order.
func bigAnswer(n int) *soap.GetTripsResponse {
	rng := rand.New(rand.NewPCG(1, 2))
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	sellers := []string{"LY", "UA", "LH", "AF", "BA"}
	next := 0 // a flight is one flight: every leg its own number
	mk := func(src, dst string, after time.Time) soap.Leg {
		dep := after.Add(time.Duration(rng.IntN(4*60)) * time.Minute)
		s := sellers[rng.IntN(len(sellers))]
		next++
		return soap.Leg{Flight: fmt.Sprintf("%s%05d", s, next), Seller: s, Alliance: "star", Src: src, Dst: dst,
			Departure: dep.Format(time.RFC3339), Arrival: dep.Add(time.Duration(60+rng.IntN(600)) * time.Minute).Format(time.RFC3339),
			Price: fmt.Sprintf("%d.%02d", 50+rng.IntN(900), rng.IntN(100)), Seats: rng.IntN(300)}
	}
	resp := &soap.GetTripsResponse{Alliance: "star", Complete: true, Total: n}
	for i := range n {
		var legs []soap.Leg
		if i%3 == 0 {
			legs = []soap.Leg{mk("TLV", "JFK", day)}
		} else {
			first := mk("TLV", "ATH", day)
			lands, _ := time.Parse(time.RFC3339, first.Arrival)
			legs = []soap.Leg{first, mk("ATH", "JFK", lands)}
		}
		var c int64
		for _, l := range legs {
			lc, _ := parseCents(l.Price)
			c += lc
		}
		resp.Trips = append(resp.Trips, soap.Trip{Price: formatCents(c), Legs: legs})
	}
	// in the price order, as a delegate sends them
	slices.SortFunc(resp.Trips, func(a, b soap.Trip) int {
		x, _ := convertTrip("star", &a)
		y, _ := convertTrip("star", &b)
		return comparePrice(&x, &y)
	})
	return resp
}

// BenchmarkAnswer2500 is the search server's work on one alliance's answer of 2,500 trips once
// the delegate's SOAP is decoded: validation, the order check, the window and the JSON, as the
// server does it (written straight from the delegate's trips into a reused buffer), and as Merge
// and encoding/json would.
func BenchmarkAnswer2500(b *testing.B) {
	answers := []DelegateAnswer{{Alliance: "star", Resp: bigAnswer(2500)}}
	if m := MergeWindow(tlvJFK, answers); !m.Answer.Complete || len(m.window) != 2500 {
		b.Fatalf("the answer merged to %d trips, complete %v: %+v", len(m.window), m.Answer.Complete, m.Answer.Alliances)
	}
	b.Run("server", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			m := MergeWindow(tlvJFK, answers)
			buf = m.AppendJSON(buf[:0])
		}
	})
	b.Run("merge-encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(Merge(tlvJFK, answers))
		}
	})
}

// BenchmarkEncodeAnswer2500 compares AppendJSON with encoding/json on an answer of 2,500 trips.
func BenchmarkEncodeAnswer2500(b *testing.B) {
	ans := Merge(tlvJFK, []DelegateAnswer{{Alliance: "star", Resp: bigAnswer(2500)}})
	if !ans.Complete || len(ans.Trips) != 2500 {
		b.Fatalf("the answer merged to %d trips, complete %v: %+v", len(ans.Trips), ans.Complete, ans.Alliances)
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		var n int
		for b.Loop() {
			out, _ := json.Marshal(ans)
			n = len(out)
		}
		b.SetBytes(int64(n))
	})
	b.Run("append-json", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf = ans.AppendJSON(buf[:0])
		}
		b.SetBytes(int64(len(buf)))
	})
}
