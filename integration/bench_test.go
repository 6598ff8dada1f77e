package integration

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/soap"
)

// These benchmarks start real processes, so each runs its own fixed workload once and reports
// custom metrics; run them with -benchtime=1x (make bench does):
//
//	go test -run '^$' -bench . -benchtime=1x ./integration/

// BenchmarkDelegateGetTrips measures getTrips on the delegate of 5 machines × 1 seller × 10k
// flights a day: latency percentiles and throughput with 4 concurrent callers, with the answer
// cache disabled and enabled, and the machines' resident memory afterwards.
func BenchmarkDelegateGetTrips(b *testing.B) {
	sellers := map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}, "m4": {"AF"}, "m5": {"BA"}}
	for _, mode := range []struct {
		name  string
		flags []string
	}{{"uncached", []string{"--cache-mib", "0", "--flights-cache", "0"}}, {"cached", nil}} {
		b.Run(mode.name, func(b *testing.B) {
			a := startAlliance(b, "star", sellers, allianceOpts{extra: mode.flags, perDay: 10000, days: 1})
			a.waitSettled(3 * time.Minute)
			// Pairs with a few thousand candidate connections: the busiest pairs of 50k flights
			// a day have tens of thousands of trips, answers of tens of megabytes.
			queries := queriesByLoad(a.activeData(), 20, 1000, 4000)
			delegate := a.delegate()
			client := soap.NewSellerClient(a.machines[delegate].url()+"/Services/SellerService", soap.ClientOptions{Timeout: 30 * time.Second, HTTPClient: httpClient})
			const calls, workers = 1000, 4
			lat := make([]time.Duration, calls)
			var next sync.Mutex
			i := 0
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						next.Lock()
						k := i
						i++
						next.Unlock()
						if k >= calls {
							return
						}
						q := queries[k%len(queries)]
						t0 := time.Now()
						resp, err := client.GetTrips(context.Background(), soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String()})
						lat[k] = time.Since(t0)
						if err != nil || !resp.Complete {
							b.Errorf("%v: err %v", q, err)
							return
						}
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[calls/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[calls*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(calls)/elapsed.Seconds(), "req/s")
			b.ReportMetric(a.maxRSSMiB(), "max-rss-MiB")
		})
	}
}

// BenchmarkSellerTransfer100k pages a 100k-flight seller out of a running machine with
// sendPrimarySeller, as a machine fetching it in a round does, and reports the rate.
func BenchmarkSellerTransfer100k(b *testing.B) {
	a := startAlliance(b, "star", map[string][]string{"m1": {"LY"}}, allianceOpts{perDay: 14286, days: 7})
	a.waitSettled(3 * time.Minute)
	client := soap.NewIntraClient(a.machines["m1"].url()+"/Services/IntraClusterService", soap.ClientOptions{Timeout: time.Minute, MaxBody: 256 << 20, HTTPClient: httpClient, Token: a.token})
	b.ResetTimer()
	start := time.Now()
	total := 0
	for range b.N {
		var asm *flight.Assembler
		cursor := ""
		for {
			page, err := client.SendSeller(context.Background(), "PRIMARY", "LY", cursor)
			if err != nil {
				b.Fatal(err)
			}
			if asm == nil {
				asm = flight.NewAssembler("LY", page.Version)
			}
			flights := make([]flight.Flight, 0, len(page.Flights))
			for _, w := range page.Flights {
				dep, _ := time.Parse(time.RFC3339, w.Departure)
				arr, _ := time.Parse(time.RFC3339, w.Arrival)
				price, _ := flight.ParseCents(w.Price)
				flights = append(flights, flight.Flight{Number: w.Flight, Seller: w.Seller, Src: w.Src, Dst: w.Dst,
					Departure: dep, Arrival: arr, Price: price, Seats: w.Seats})
			}
			if err := asm.Add(flights); err != nil {
				b.Fatal(err)
			}
			if page.NextCursor == "" {
				break
			}
			cursor = page.NextCursor
		}
		sel, err := asm.Seller()
		if err != nil {
			b.Fatal(err)
		}
		total += sel.Len()
	}
	b.ReportMetric(float64(total)/time.Since(start).Seconds(), "flights/s")
	b.ReportMetric(float64(total/b.N), "flights")
}

// BenchmarkKillToSettled kills a non-delegate machine of 5 with SIGKILL and measures the time
// until the tree shows a settled placement without it, then restarts it; three times.
func BenchmarkKillToSettled(b *testing.B) {
	a := startAlliance(b, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}, "m4": {"AF"}, "m5": {"BA"}}, allianceOpts{})
	a.waitSettled(2 * time.Minute)
	var worst, sum time.Duration
	const rounds = 3
	b.ResetTimer()
	for r := range rounds {
		victim := fmt.Sprintf("m%d", 2+r)
		a.kill(victim)
		took := a.waitSettled(time.Minute)
		sum += took
		worst = max(worst, took)
		a.restart(victim)
		a.waitSettled(2 * time.Minute)
	}
	b.ReportMetric(sum.Seconds()/rounds, "mean-settle-s")
	b.ReportMetric(worst.Seconds(), "max-settle-s")
}

// maxRSSMiB is the largest resident set of the alliance's running machines.
func (a *testAlliance) maxRSSMiB() float64 {
	var most float64
	for _, n := range a.live() {
		p := a.machines[n].proc
		pid := p.Pid()
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseFloat(f[1], 64)
				most = max(most, kb/1024)
			}
		}
	}
	return most
}
