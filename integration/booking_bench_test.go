package integration

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/flight"
)

// BenchmarkBookings books through the search server's REST API of a 3-machine alliance with 4
// concurrent clients, on 4 distinct flights (one each) and all on one hot flight, and reports
// bookings/s and latency percentiles beside what the same embedded etcd cluster does with a
// comparable raw transaction (read a counter, then compare its revision and the absence of an
// idempotency key, and write the counter, a record and the key), from 4 concurrent clients.
// Each part runs its fixed workload once: use -benchtime=1x (make bench does).
func BenchmarkBookings(b *testing.B) {
	var distinct []flight.Flight
	var hot flight.Flight
	w := newBookingWorld(b, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{},
		func(data map[string][]flight.Flight) map[flight.Key]int {
			fs := append(directFlights(data, "LY", 3), directFlights(data, "UA", 2)...)
			distinct, hot = fs[:4], fs[4]
			seats := map[flight.Key]int{}
			for _, f := range fs {
				seats[f.Key()] = 100000
			}
			return seats
		})
	for i := range distinct {
		distinct[i] = w.flight(distinct[i])
	}
	hot = w.flight(hot)
	w.waitBookable(hot, 90*time.Second)
	for _, f := range distinct { // warm every path (SOAP clients, etcd leases) before timing
		w.mustBook(newKey("warm"), oneLeg(f, 1), 30*time.Second)
	}

	const perClient, clients = 100, 4
	b.ResetTimer()
	d := benchBookings(b, w.api, clients, perClient, func(i int) flight.Flight { return distinct[i] })
	h := benchBookings(b, w.api, clients, perClient, func(int) flight.Flight { return hot })
	cli := w.a.etcd()
	defer cli.Close()
	ed := benchEtcdTxn(b, cli, clients, perClient, func(i int) string { return "distinct-" + strconv.Itoa(i) })
	eh := benchEtcdTxn(b, cli, clients, perClient, func(int) string { return "hot" })
	b.StopTimer()

	b.ReportMetric(d.rate, "bookings/s")
	b.ReportMetric(d.p50, "p50-ms")
	b.ReportMetric(d.p99, "p99-ms")
	b.ReportMetric(h.rate, "hot-bookings/s")
	b.ReportMetric(h.p50, "hot-p50-ms")
	b.ReportMetric(h.p99, "hot-p99-ms")
	b.ReportMetric(ed.rate, "etcd-txn/s")
	b.ReportMetric(ed.p50, "etcd-p50-ms")
	b.ReportMetric(eh.rate, "etcd-hot-txn/s")
	b.ReportMetric(d.rate/ed.rate, "rest/etcd")
	b.ReportMetric(h.rate/eh.rate, "hot-rest/etcd")
	b.Logf("REST, distinct flights: %.0f bookings/s, p50 %.1f ms, p99 %.1f ms; one hot flight: %.0f/s, p50 %.1f ms, p99 %.1f ms",
		d.rate, d.p50, d.p99, h.rate, h.p50, h.p99)
	b.Logf("raw etcd txn, distinct counters: %.0f/s, p50 %.1f ms, p99 %.1f ms; one hot counter: %.0f/s (%d compare failures retried)",
		ed.rate, ed.p50, ed.p99, eh.rate, eh.retries)
	if got := w.booked(hot); got != clients*perClient {
		b.Fatalf("%d seats booked on the hot flight after %d bookings of one seat", got, clients*perClient)
	}
}

// benchResult is the throughput and latency of one timed part.
type benchResult struct {
	rate, p50, p99 float64 // per second; milliseconds
	retries        int64
}

func summarizeBench(lat []time.Duration, elapsed time.Duration, retries int64) benchResult {
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return benchResult{rate: float64(len(lat)) / elapsed.Seconds(), p50: ms(lat[len(lat)/2]),
		p99: ms(lat[len(lat)*99/100]), retries: retries}
}

// benchBookings has each of n clients book perClient single seats, one after the other, on the
// flight flightOf(client) gives it.
func benchBookings(b *testing.B, api bookingAPI, n, perClient int, flightOf func(int) flight.Flight) benchResult {
	lat := make([]time.Duration, n*perClient)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range n {
		wg.Go(func() {
			for i := range perClient {
				t0 := time.Now()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				ans := api.bookUntilDefinite(ctx, newKey("bench"), oneLeg(flightOf(c), 1))
				cancel()
				lat[c*perClient+i] = time.Since(t0)
				if ans.status != http.StatusCreated {
					b.Errorf("booking %d of client %d: %v", i, c, ans)
					return
				}
			}
		})
	}
	wg.Wait()
	return summarizeBench(lat, time.Since(start), 0)
}

// benchEtcdTxn is the store's half of a booking, straight on etcd: read the counter, then one
// transaction guarded by the counter's revision and the idempotency key's absence that writes the
// counter, a record and the key; a lost race reads again.
func benchEtcdTxn(b *testing.B, cli *clientv3.Client, n, perClient int, counterOf func(int) string) benchResult {
	prefix := fmt.Sprintf("/bench/%d/", time.Now().UnixNano())
	lat := make([]time.Duration, n*perClient)
	var retries atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for c := range n {
		wg.Go(func() {
			counter := prefix + "seats/" + counterOf(c)
			for i := range perClient {
				t0 := time.Now()
				key := newKey("etcd")
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				for {
					resp, err := cli.Get(ctx, counter)
					if err != nil {
						b.Errorf("get %s: %v", counter, err)
						break
					}
					var rev int64
					booked := 0
					if len(resp.Kvs) == 1 {
						rev = resp.Kvs[0].ModRevision
						booked, _ = strconv.Atoi(string(resp.Kvs[0].Value))
					}
					txn, err := cli.Txn(ctx).If(
						clientv3.Compare(clientv3.ModRevision(counter), "=", rev),
						clientv3.Compare(clientv3.CreateRevision(prefix+"idem/"+key), "=", 0),
					).Then(
						clientv3.OpPut(counter, strconv.Itoa(booked+1)),
						clientv3.OpPut(prefix+"bookings/"+key, `{"id":"`+key+`","seats":1,"status":"confirmed"}`),
						clientv3.OpPut(prefix+"idem/"+key, key),
					).Commit()
					if err != nil {
						b.Errorf("txn: %v", err)
						break
					}
					if txn.Succeeded {
						break
					}
					retries.Add(1)
				}
				cancel()
				lat[c*perClient+i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cli.Delete(ctx, prefix, clientv3.WithPrefix()); err != nil {
		b.Logf("cleaning %s: %v", prefix, err)
	}
	return summarizeBench(lat, elapsed, retries.Load())
}
