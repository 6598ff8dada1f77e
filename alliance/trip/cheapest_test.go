package trip

import (
	"fmt"
	"slices"
	"testing"
	"time"

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
		if !sameRefs(got, want) {
			t.Fatalf("query %+v, k %d: Cheapest's refs differ from Build's", q, k)
		}
		checkRefs(t, got, len(fromSrc)+len(toDst))
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

// When many trips share the k-th price, the order among them (arrival, then flight numbers)
// decides which are the first k: a trip that costs as much as the k-th kept may still belong
// before it, so only a dearer one may be passed over.
func TestCheapestKeepsTiesInOrder(t *testing.T) {
	q := Query{Src: "AAA", Dst: "CCC", Date: day, MinConnection: 30 * time.Minute}
	var fromSrc, toDst []flight.Flight
	start := day.Start()
	for i := range 10 {
		dep := start.Add(time.Duration(i) * time.Hour)
		fromSrc = append(fromSrc, flight.Flight{Number: fmt.Sprintf("F%d", i), Seller: "S1", Src: "AAA", Dst: "BBB",
			Departure: dep, Arrival: dep.Add(time.Hour), Price: 100})
		// Second legs listed latest first: the cheapest-first reading meets the late arrivals first.
		dep2 := start.Add(time.Duration(22-i) * time.Hour)
		toDst = append(toDst, flight.Flight{Number: fmt.Sprintf("G%d", i), Seller: "S2", Src: "BBB", Dst: "CCC",
			Departure: dep2, Arrival: dep2.Add(time.Hour), Price: 100})
	}
	all := Build(q, fromSrc, toDst)
	for _, k := range []int{1, 3, 7} {
		if got, total := Cheapest(q, fromSrc, toDst, k); total != len(all) || !equalTrips(got, all[:k]) {
			t.Errorf("k %d, every trip at one price: %v, want %v", k, describe(got), describe(all[:k]))
		}
	}
}

// Cheapest is Build cut to k with prices from three values only: ties fill the heap.
func TestCheapestIsBuildCutWithTies(t *testing.T) {
	checkCheapestWithPrices(t, func(p flight.Cents) flight.Cents { return flight.Cents(100 * (1 + int(p/100)%3)) })
}

// Prices over 4.29 billion cents (32 bits) are ordered by comparing the flights
// rather than as one word with their position (priceOrder): Cheapest still agrees with Build.
func TestCheapestIsBuildCutWithPricesBeyondThirtyTwoBits(t *testing.T) {
	checkCheapestWithPrices(t, func(p flight.Cents) flight.Cents { return flight.Cents(int64(p%3) << 31) })
}

// checkCheapestWithPrices checks Cheapest against Build on every flight of a generated schedule
// on both sides, each flight's price replaced by price(its price).
func checkCheapestWithPrices(t *testing.T, price func(flight.Cents) flight.Cents) {
	rapid.Check(t, func(t *rapid.T) {
		schedule := genSchedule(t)
		q := genQuery(t)
		var fromSrc, toDst []flight.Flight
		for _, code := range propSellers {
			for _, f := range schedule[code] {
				f.Price = price(f.Price)
				fromSrc, toDst = append(fromSrc, f), append(toDst, f)
			}
		}
		k := rapid.IntRange(1, 8).Draw(t, "k")
		all := Build(q, fromSrc, toDst)
		got, total := Cheapest(q, fromSrc, toDst, k)
		if total != len(all) || !equalTrips(got, all[:min(k, len(all))]) {
			t.Fatalf("query %+v, k %d\nCheapest %v\nBuild    %v", q, k, describe(got), describe(all[:min(k, len(all))]))
		}
	})
}

// priceOrder lists positions by price, equal prices by position, in one word or not.
func TestPriceOrder(t *testing.T) {
	for _, big := range []flight.Cents{0, 1 << 40, -1000} {
		flights := []flight.Flight{{Price: 300 + big}, {Price: 100}, {Price: 300}, {Price: 100}, {Price: 200 + big}}
		got, _ := priceOrder([]int32{4, 3, 2, 1, 0}, flights, nil)
		want := []int32{1, 3, 2, 4, 0}
		switch big {
		case 0:
			want = []int32{1, 3, 4, 0, 2}
		case -1000:
			want = []int32{4, 0, 1, 3, 2} // negative prices: the comparison sort, same order
		}
		if !slices.Equal(got, want) {
			t.Errorf("with %d added to two prices: %v, want %v", big, got, want)
		}
	}
}
