package trip

import (
	"testing"

	"pgregory.net/rapid"

	"flightalliance/alliance/flight"
)

// Cheapest is Build cut to k: the same first k trips in the same order, and Build's count, for
// inputs fed as the delegate feeds them (duplicates, any order, flights that fit no list).
func TestCheapestIsBuildCut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		schedule := genSchedule(t)
		q := genQuery(t)
		var fromSrc, toDst []flight.Flight
		for _, code := range propSellers {
			s, err := flight.NewSeller(code, schedule[code])
			if err != nil {
				t.Fatal(err)
			}
			fromSrc = append(fromSrc, s.BySrc(q.Src, q.Date)...)
			toDst = append(toDst, s.ByDst(q.Dst, q.Date)...)
			if rapid.Bool().Draw(t, "unfiltered") { // a holder that sends more than asked
				fromSrc = append(fromSrc, s.Flights()...)
			}
		}
		fromSrc = rapid.Permutation(append(fromSrc, rapid.SliceOfN(rapid.SampledFrom(append(fromSrc, flight.Flight{})), 0, 5).Draw(t, "dupSrc")...)).Draw(t, "fromSrc")
		toDst = rapid.Permutation(append(toDst, rapid.SliceOfN(rapid.SampledFrom(append(toDst, flight.Flight{})), 0, 5).Draw(t, "dupDst")...)).Draw(t, "toDst")
		k := rapid.IntRange(-1, 30).Draw(t, "k")

		all := Build(q, fromSrc, toDst)
		got, total := Cheapest(q, fromSrc, toDst, k)
		if total != len(all) {
			t.Fatalf("query %+v: count %d, Build has %d trips", q, total, len(all))
		}
		want := all[:min(max(k, 0), len(all))]
		if !equalTrips(got, want) {
			t.Fatalf("query %+v, k %d\nCheapest %v\nBuild    %v", q, k, describe(got), describe(want))
		}
	})
}

// On a day of real schedules (ten sellers, 10,000 flights) Cheapest agrees with Build for the
// busiest pair and a quiet one, at the page sizes searches ask for.
func TestCheapestOnABusyDay(t *testing.T) {
	sellers := busyAlliance(t)
	busy, _ := busiestPair(sellers)
	for _, q := range []Query{busy, {Src: "TLV", Dst: "JFK", Date: day}, {Src: "JFK", Dst: "TLV", Date: day}} {
		fromSrc, toDst := gather(sellers, q)
		all := Build(q, fromSrc, toDst)
		for _, k := range []int{1, 20, 100, len(all) + 1} {
			got, total := Cheapest(q, fromSrc, toDst, k)
			if total != len(all) || !equalTrips(got, all[:min(k, len(all))]) {
				t.Errorf("%s→%s, k %d: %d trips of %d, want Build's first %d of %d", q.Src, q.Dst, k, len(got), total, min(k, len(all)), len(all))
			}
		}
	}
}
