package flight

import (
	"bytes"
	"testing"
)

// benchData generates n flights a day for one seller over one day.
func benchData(b *testing.B, perDay, days int) []Flight {
	b.Helper()
	data, err := Generate(GenerateConfig{Sellers: []string{"LY"}, From: testDay, Days: days, PerDay: perDay, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return data["LY"]
}

// BenchmarkSellerBySrc asks a 10,000-flight seller (1,000 a day for 10 days) for the departures
// of its busiest airport on one day.
func BenchmarkSellerBySrc(b *testing.B) {
	s := mustSeller(b, "LY", benchData(b, 1000, 10))
	busiest, most := "", 0
	for _, a := range Airports() {
		if n := len(s.BySrc(a.Code, testDay)); n > most {
			busiest, most = a.Code, n
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if len(s.BySrc(busiest, testDay)) != most {
			b.Fatal("BySrc changed its answer")
		}
	}
	b.ReportMetric(float64(most), "flights/op")
}

// BenchmarkParseCSV100k parses a 100,000-flight file.
func BenchmarkParseCSV100k(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, benchData(b, 10000, 10)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		flights, err := ParseCSV(bytes.NewReader(buf.Bytes()), "bench.csv")
		if err != nil || len(flights) != 100000 {
			b.Fatalf("%d flights, %v", len(flights), err)
		}
	}
}

// BenchmarkNewSeller100k validates, hashes and indexes 100,000 flights.
func BenchmarkNewSeller100k(b *testing.B) {
	flights := benchData(b, 10000, 10)
	b.ResetTimer()
	for b.Loop() {
		mustSeller(b, "LY", flights)
	}
}

// BenchmarkPagedTransfer100k moves a 100,000-flight seller in pages of 1,000 and verifies it.
func BenchmarkPagedTransfer100k(b *testing.B) {
	s := mustSeller(b, "LY", benchData(b, 10000, 10))
	b.ResetTimer()
	for b.Loop() {
		a := NewAssembler(s.Code(), s.Version())
		for cursor := ""; ; {
			page, next, err := s.Page(cursor, 1000)
			if err != nil {
				b.Fatal(err)
			}
			if err := a.Add(page); err != nil {
				b.Fatal(err)
			}
			if cursor = next; cursor == "" {
				break
			}
		}
		if _, err := a.Seller(); err != nil {
			b.Fatal(err)
		}
	}
}
