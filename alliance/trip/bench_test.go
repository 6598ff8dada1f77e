package trip

import (
	"fmt"
	"testing"

	"flightalliance/alliance/flight"
)

// busyAlliance is a 10,000-flights-a-day alliance: ten sellers of 1,000 flights a day, one day.
func busyAlliance(b testing.TB) []*flight.Seller {
	b.Helper()
	var codes []string
	for i := range 10 {
		codes = append(codes, fmt.Sprintf("S%d", i))
	}
	data, err := flight.Generate(flight.GenerateConfig{Sellers: codes, From: day, Days: 1, PerDay: 1000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	sellers := make([]*flight.Seller, len(codes))
	for i, code := range codes {
		if sellers[i], err = flight.NewSeller(code, data[code]); err != nil {
			b.Fatal(err)
		}
	}
	return sellers
}

func gather(sellers []*flight.Seller, q Query) (fromSrc, toDst []flight.Flight) {
	for _, s := range sellers {
		fromSrc = append(fromSrc, s.BySrc(q.Src, q.Date)...)
		toDst = append(toDst, s.ByDst(q.Dst, q.Date)...)
	}
	return fromSrc, toDst
}

// busiestPair is the pair of airports with the most trips on the day.
func busiestPair(sellers []*flight.Seller) (Query, int) {
	var best Query
	most := -1
	for _, src := range flight.Airports() {
		for _, dst := range flight.Airports() {
			q := Query{Src: src.Code, Dst: dst.Code, Date: day}
			fromSrc, toDst := gather(sellers, q)
			if n := len(Build(q, fromSrc, toDst)); n > most {
				best, most = q, n
			}
		}
	}
	return best, most
}

// BenchmarkBuildBusyPair builds the trips of the busiest pair of a 10,000-flights-a-day
// alliance from flights already gathered (what the delegate does after its fan-out).
func BenchmarkBuildBusyPair(b *testing.B) {
	sellers := busyAlliance(b)
	q, want := busiestPair(sellers)
	fromSrc, toDst := gather(sellers, q)
	b.ResetTimer()
	for b.Loop() {
		if n := len(Build(q, fromSrc, toDst)); n != want {
			b.Fatalf("%d trips; want %d", n, want)
		}
	}
	b.ReportMetric(float64(want), "trips/op")
	b.ReportMetric(float64(len(fromSrc)+len(toDst)), "flights-in/op")
}

// BenchmarkSearchBusyPair is the same search including the index lookups on every seller.
func BenchmarkSearchBusyPair(b *testing.B) {
	sellers := busyAlliance(b)
	q, want := busiestPair(sellers)
	b.ResetTimer()
	for b.Loop() {
		fromSrc, toDst := gather(sellers, q)
		if n := len(Build(q, fromSrc, toDst)); n != want {
			b.Fatalf("%d trips; want %d", n, want)
		}
	}
}

// BenchmarkCheapestBusyPair is a first page (20 trips, and the count) of the busiest pair from
// the same flights as BenchmarkBuildBusyPair: what a cold page costs the delegate instead of the
// whole list.
func BenchmarkCheapestBusyPair(b *testing.B) {
	sellers := busyAlliance(b)
	q, want := busiestPair(sellers)
	fromSrc, toDst := gather(sellers, q)
	b.ResetTimer()
	for b.Loop() {
		if page, n := Cheapest(q, fromSrc, toDst, 20); n != want || len(page) != 20 {
			b.Fatalf("%d trips of %d; want 20 of %d", len(page), n, want)
		}
	}
	b.ReportMetric(float64(want), "trips/op")
}
