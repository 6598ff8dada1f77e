package flight

import (
	"fmt"
	"time"

	"pgregory.net/rapid"
)

var testDay = Date{2026, time.December, 1}

// genFlights draws a valid schedule for seller code: unique numbers, a few airports so that
// index buckets hold several flights, departures over three days around testDay.
func genFlights(t *rapid.T, code string, maxLen int) []Flight {
	airports := []string{"TLV", "JFK", "LHR", "CDG"}
	n := rapid.IntRange(0, maxLen).Draw(t, "n")
	numbers := rapid.Permutation(seq(n)).Draw(t, "numbers")
	flights := make([]Flight, n)
	for i := range flights {
		src := rapid.SampledFrom(airports).Draw(t, "src")
		dst := rapid.SampledFrom(airports).Filter(func(s string) bool { return s != src }).Draw(t, "dst")
		dep := testDay.AddDays(-1).Start().Add(time.Duration(rapid.IntRange(0, 3*24*60-1).Draw(t, "dep")) * time.Minute)
		flights[i] = Flight{
			Number:    fmt.Sprintf("%s%03d", code, numbers[i]),
			Seller:    code,
			Src:       src,
			Dst:       dst,
			Departure: dep,
			Arrival:   dep.Add(time.Duration(rapid.IntRange(1, 20*60).Draw(t, "minutes")) * time.Minute),
			Price:     Cents(rapid.Int64Range(0, 500000).Draw(t, "price")),
			Seats:     rapid.IntRange(0, 400).Draw(t, "seats"),
		}
	}
	return flights
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func mustSeller(t interface{ Fatalf(string, ...any) }, code string, flights []Flight) *Seller {
	s, err := NewSeller(code, flights)
	if err != nil {
		t.Fatalf("NewSeller(%s): %v", code, err)
	}
	return s
}

func timeHours(n int) time.Duration { return time.Duration(n) * time.Hour }
