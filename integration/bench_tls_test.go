package integration

import (
	"context"
	"slices"
	"testing"
	"time"

	"flightalliance/soap"
)

// BenchmarkTLSCost runs the same alliance twice — open, and secure (token and TLS for SOAP,
// status and etcd) — and reports what TLS costs: getTrips p50 on the delegate with the cache off
// (so every search also calls the holders over TLS), and the time from killing a machine to a
// settled placement (a round with transfers over TLS). Ratios are secure / open, same run.
func BenchmarkTLSCost(b *testing.B) {
	sellers := map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}
	measure := func(secure bool) (p50 time.Duration, settle time.Duration) {
		a := startAlliance(b, "star", sellers, allianceOpts{extra: []string{"--cache-mib", "0", "--flights-cache", "0"}, perDay: 3000, days: 1, open: !secure})
		a.waitSettled(2 * time.Minute)
		queries := queriesByLoad(a.activeData(), 10, 100, 1000)
		client := soap.NewSellerClient(a.machines[a.delegate()].url()+"/Services/SellerService",
			soap.ClientOptions{Timeout: 30 * time.Second, HTTPClient: httpClient})
		const calls = 300
		lat := make([]time.Duration, 0, calls)
		for k := range calls {
			q := queries[k%len(queries)]
			t0 := time.Now()
			resp, err := client.GetTrips(context.Background(), soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String()})
			if err != nil || !resp.Complete {
				b.Fatalf("%v: %v", q, err)
			}
			lat = append(lat, time.Since(t0))
		}
		slices.Sort(lat)
		a.kill("m3")
		settle = a.waitSettled(time.Minute)
		return lat[calls/2], settle
	}
	b.ResetTimer()
	openP50, openSettle := measure(false)
	tlsP50, tlsSettle := measure(true)
	b.StopTimer()
	b.ReportMetric(float64(openP50.Microseconds())/1000, "open-p50-ms")
	b.ReportMetric(float64(tlsP50.Microseconds())/1000, "tls-p50-ms")
	b.ReportMetric(float64(tlsP50)/float64(openP50), "p50-tls/open")
	b.ReportMetric(openSettle.Seconds(), "open-settle-s")
	b.ReportMetric(tlsSettle.Seconds(), "tls-settle-s")
	b.ReportMetric(tlsSettle.Seconds()/openSettle.Seconds(), "settle-tls/open")
}
