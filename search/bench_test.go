package search

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"flightalliance/soap"
)

// BenchmarkSearchHop measures what the search server adds: the same getTrips answer (20 trips)
// fetched directly from the delegate with the SOAP client, and through the search server (REST
// in, SOAP to one cached delegate, merge, JSON out), in the same run. It reports req/s and
// latency percentiles besides ns/op.
func BenchmarkSearchHop(b *testing.B) {
	resp := soap.GetTripsResponse{Complete: true}
	for i := range 20 {
		resp.Trips = append(resp.Trips, wireTrip("", leg(fmt.Sprintf("LY%03d", i), "TLV", "JFK", "08:00", "19:10", fmt.Sprintf("%d.00", 300+i*7%50))))
	}
	d := startDelegate(b, answer(resp))
	ts := startSearch(b, Config{})
	ts.register(b, "star", d.URI)
	req := soap.GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}

	b.Run("direct", func(b *testing.B) {
		c := soap.NewSellerClient(d.URI, soap.ClientOptions{Timeout: 5 * time.Second})
		measure(b, func() error {
			r, err := c.GetTrips(context.Background(), req)
			if err == nil && len(r.Trips) != 20 {
				err = fmt.Errorf("%d trips", len(r.Trips))
			}
			return err
		})
	})
	b.Run("via-search", func(b *testing.B) {
		client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		url := ts.URL + "/Services/FlightsSearch/flight?" + query
		measure(b, func() error {
			r, err := client.Get(url)
			if err != nil {
				return err
			}
			defer r.Body.Close()
			n, _ := io.Copy(io.Discard, r.Body)
			if r.StatusCode != http.StatusOK || n < 1000 {
				return fmt.Errorf("status %d, %d bytes", r.StatusCode, n)
			}
			return nil
		})
	})
}

func measure(b *testing.B, call func() error) {
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		t0 := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
}
