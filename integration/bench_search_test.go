package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/search"
	"flightalliance/soap"
)

// BenchmarkSearchREST measures issue 12's REST path against an in-process reference, on the same
// generated data, in one run: 5 machines × 1 seller × 10,000 flights a day, 40 random airport
// pairs (the same every run; their median answer has about 2,500 trips, 900 KiB of JSON).
//
//   - ref: in this process, from the query's flights (those leaving src and those arriving at dst
//     on the date, picked out beforehand as the machines' indexes have them), the hash join and
//     sort of trip.Build, then the search server's Answer of those trips encoded as JSON with the
//     search server's own encoder (Answer.AppendJSON, into a reused buffer as the server does):
//     the median of 5 runs per query. ref-stdjson is the same with encoding/json, the reference
//     of the issue (the search server's encoder before it had its own); the ratios against it
//     are reported too, for comparison with the figures.
//   - rest-cold: GET /Services/FlightsSearch/flight through a search server process whose
//     alliance runs with --cache-size 0 (every search gathers flights from the machines);
//     rest-warm: through a search server whose alliance caches, after a first call per query.
//     Each is the median of 3 calls per query; the ratios are per query, their median reported.
//   - paged-cold: limit=20 through the uncached alliance, p50 over 3 calls per query.
//   - answers/s: 4 concurrent clients, whole lists through the caching alliance; paged-answers/s
//     the same with limit=20 through the uncached one.
//   - delegate-*: getTrips straight to the delegate with the SOAP client (what REST adds is the
//     difference), and the CPU time each process spent per warm answer (search server, delegate,
//     other machines), read from /proc.
//
// With FA_PPROF_DIR set, the warm and cold REST loops run again through an in-process search
// server registered with the same delegates, under the CPU profiler, and cpu-rest-warm.pprof and
// cpu-rest-cold.pprof are written there (the search server's side and the HTTP client's; the
// machines run in their own processes and have no profiling endpoint).
//
// The figures are reported, never asserted. Run it alone with
//
//	go test -run '^$' -bench SearchREST -benchtime=1x ./integration/
func BenchmarkSearchREST(b *testing.B) {
	sellers := map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}, "m4": {"AF"}, "m5": {"BA"}}
	dir := b.TempDir()
	searchFlags := []string{"--registration-ttl", "30s", "--delegate-timeout", "60s", "--hedge-delay", "60s", "--log-level", "warn"}
	coldAddr, warmAddr := freeAddr(b), freeAddr(b)
	coldSearch := startProc(b, dir, "search-cold", "search", append([]string{"--listen", coldAddr}, searchFlags...)...)
	warmSearch := startProc(b, dir, "search-warm", "search", append([]string{"--listen", warmAddr}, searchFlags...)...)
	coldBase, warmBase := "http://"+coldAddr, "http://"+warmAddr
	cold := startAlliance(b, "cold", sellers, allianceOpts{extra: []string{"--cache-size", "0"}, perDay: 10000, days: 1, search: []string{coldBase}})
	warm := startAlliance(b, "warm", sellers, allianceOpts{perDay: 10000, days: 1, search: []string{warmBase}})
	cold.waitSettled(3 * time.Minute)
	warm.waitSettled(3 * time.Minute)
	data := warm.activeData() // the same generated data as cold's
	queries := randomQueries(data, 40)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}, Timeout: 2 * time.Minute}
	for _, base := range []string{coldBase, warmBase} {
		eventually(b, time.Minute, "the alliance answers complete through "+base, func() error {
			_, err := restCall(client, base, queries[0], 0)
			return err
		})
	}

	b.ResetTimer()
	// The reference, per query: with the search server's encoder, and with encoding/json (the
	// issue's reference, when the search server still used it).
	ref := make([]time.Duration, len(queries))
	refStd := make([]time.Duration, len(queries))
	trips := make([]float64, len(queries))
	sizes := make([]float64, len(queries))
	var buf []byte
	for i, q := range queries {
		in := refInput(data, q)
		var runs, std []time.Duration
		for range 5 {
			t0 := time.Now()
			var n int
			buf, n = in.answer(buf[:0], false)
			runs = append(runs, time.Since(t0))
			t0 = time.Now()
			in.answer(nil, true)
			std = append(std, time.Since(t0))
			trips[i], sizes[i] = float64(n), float64(len(buf))
		}
		ref[i], refStd[i] = median(runs), median(std)
	}

	// Cold: every search gathers from the machines.
	restCold := perQuery(b, client, coldBase, queries, 0, 3, false)
	pagedCold := allCalls(b, client, coldBase, queries, 20, 3)
	delegateCold := delegateCalls(b, cold, queries, 3, false)
	// Warm: the first call per query fills the delegate's cache.
	warmDelegate := warm.delegate()
	machinesBefore, searchBefore, metricsBefore := warm.cpuTicks(), cpuTicksOf(warmSearch), searchMetrics(b, client, warmBase)
	restWarm := perQuery(b, client, warmBase, queries, 0, 3, true)
	warmCalls := float64(len(queries) * 4)
	machinesAfter, searchAfter, metricsAfter := warm.cpuTicks(), cpuTicksOf(warmSearch), searchMetrics(b, client, warmBase)
	delegateWarm := delegateCalls(b, warm, queries, 3, true)
	// Throughput with 4 clients.
	answersPerSec := throughput(b, client, warmBase, queries, 0, 4, 4*len(queries))
	pagedPerSec := throughput(b, client, coldBase, queries, 20, 4, 4*len(queries))
	b.StopTimer()

	ratioTo := func(ref, rest []time.Duration) float64 {
		r := make([]float64, len(rest))
		for i := range rest {
			r[i] = float64(rest[i]) / float64(ref[i])
		}
		return medianF(r)
	}
	ratio := func(rest []time.Duration) float64 { return ratioTo(ref, rest) }
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(float64(len(queries)), "queries")
	b.ReportMetric(medianF(trips), "median-trips")
	b.ReportMetric(medianF(sizes)/1024, "median-answer-KiB")
	b.ReportMetric(ms(median(ref)), "ref-ms")
	b.ReportMetric(ms(median(refStd)), "ref-stdjson-ms")
	b.ReportMetric(ratioTo(refStd, restWarm), "rest-warm/ref-stdjson")
	b.ReportMetric(ratioTo(refStd, restCold), "rest-cold/ref-stdjson")
	b.ReportMetric(ms(median(restWarm)), "rest-warm-ms")
	b.ReportMetric(ms(median(restCold)), "rest-cold-ms")
	b.ReportMetric(ratio(restWarm), "rest-warm/ref")
	b.ReportMetric(ratio(restCold), "rest-cold/ref")
	b.ReportMetric(ratio(delegateWarm), "delegate-warm/ref")
	b.ReportMetric(ratio(delegateCold), "delegate-cold/ref")
	b.ReportMetric(ms(median(pagedCold)), "paged-cold-p50-ms")
	b.ReportMetric(answersPerSec, "answers/s")
	b.ReportMetric(pagedPerSec, "paged-answers/s")
	mean := func(name string) float64 {
		return 1000 * (metricsAfter[name+"_sum"] - metricsBefore[name+"_sum"]) / (metricsAfter[name+"_count"] - metricsBefore[name+"_count"])
	}
	b.ReportMetric(mean("search_fanout_duration_seconds"), "warm-fanout-mean-ms")
	b.ReportMetric(mean(`search_http_request_duration_seconds{route="/Services/FlightsSearch/flight"}`), "warm-handler-mean-ms")
	tick := 1000 / float64(clockTicks)
	b.ReportMetric(float64(searchAfter-searchBefore)*tick/warmCalls, "search-cpu-ms/ans")
	b.ReportMetric(float64(machinesAfter[warmDelegate]-machinesBefore[warmDelegate])*tick/warmCalls, "delegate-cpu-ms/ans")
	var others int64
	for name, after := range machinesAfter {
		if name != warmDelegate {
			others += after - machinesBefore[name]
		}
	}
	b.ReportMetric(float64(others)*tick/warmCalls, "others-cpu-ms/ans")
	_ = coldSearch

	if dir := os.Getenv("FA_PPROF_DIR"); dir != "" {
		profileREST(b, dir, cold, warm, queries)
	}
}

// randomQueries picks n distinct pairs of the data's airports, the same ones every run.
func randomQueries(data map[string][]flight.Flight, n int) []query {
	set := map[string]bool{}
	for _, fs := range data {
		for _, f := range fs {
			set[f.Src], set[f.Dst] = true, true
		}
	}
	airports := slices.Sorted(maps.Keys(set))
	rng := rand.New(rand.NewPCG(12, 12))
	var out []query
	for len(out) < n {
		q := query{src: airports[rng.IntN(len(airports))], dst: airports[rng.IntN(len(airports))], date: testDate}
		if q.src != q.dst && !slices.ContainsFunc(out, func(o query) bool { return o.src == q.src && o.dst == q.dst }) {
			out = append(out, q)
		}
	}
	return out
}

// refQuery is one query's input to the reference: the flights the machines' indexes give.
type refQuery struct {
	q              query
	fromSrc, toDst []flight.Flight
	alliance       string
}

func refInput(data map[string][]flight.Flight, q query) refQuery {
	in := refQuery{q: q, alliance: "warm"}
	for _, s := range slices.Sorted(maps.Keys(data)) {
		for _, f := range data[s] {
			if flight.DateOf(f.Departure) != q.date {
				continue
			}
			if f.Src == q.src {
				in.fromSrc = append(in.fromSrc, f)
			}
			if f.Dst == q.dst {
				in.toDst = append(in.toDst, f)
			}
		}
	}
	return in
}

// answer is the reference's work: join, sort, and the search server's JSON answer, appended to
// dst with the search server's encoder (Answer.AppendJSON), or with encoding/json.
func (in refQuery) answer(dst []byte, stdjson bool) ([]byte, int) {
	ts := trip.Build(trip.Query{Src: in.q.src, Dst: in.q.dst, Date: in.q.date, MinConnection: 30 * time.Minute}, in.fromSrc, in.toDst)
	ans := search.Answer{
		Query:     search.QueryEcho{Src: in.q.src, Dst: in.q.dst, Date: in.q.date.String()},
		Total:     len(ts),
		Trips:     make([]search.Trip, len(ts)),
		Complete:  true,
		Alliances: []search.AllianceStatus{{Name: in.alliance, Complete: true, MissingSellers: []string{}}},
	}
	legs := make([]search.Leg, 0, 2*len(ts))
	for i, t := range ts {
		first := len(legs)
		for _, f := range t.Legs {
			legs = append(legs, search.Leg{Flight: f.Number, Seller: f.Seller, Alliance: in.alliance, Src: f.Src, Dst: f.Dst,
				Departure: f.Departure.Format(time.RFC3339), Arrival: f.Arrival.Format(time.RFC3339),
				Price: f.Price.String(), Seats: f.Seats})
		}
		ans.Trips[i] = search.Trip{Price: t.Price.String(), Legs: legs[first:len(legs):len(legs)]}
	}
	if stdjson {
		body, err := json.Marshal(ans)
		if err != nil {
			panic(err)
		}
		return append(body, '\n'), len(ts)
	}
	return append(ans.AppendJSON(dst), '\n'), len(ts)
}

// restCall GETs one search and reads the whole answer; it returns the answer's size.
func restCall(client *http.Client, base string, q query, limit int) (int, error) {
	u := searchURL(base, q)
	if limit > 0 {
		u += "&" + url.Values{"limit": {strconv.Itoa(limit)}}.Encode()
	}
	resp, err := client.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%v: %s: %.200s", q, resp.Status, body)
	}
	// Only the ends are checked: decoding the whole answer is the client's work, not the server's.
	head := body[:min(len(body), 200)]
	if !bytes.Contains(head, []byte(`"total":`)) || !bytes.HasSuffix(bytes.TrimSpace(body), []byte(`"complete":true,"missing_sellers":[]}]}`)) {
		return 0, fmt.Errorf("%v: not a complete answer: %.200s…%.200s", q, head, body[max(0, len(body)-200):])
	}
	return len(body), nil
}

// perQuery times calls REST calls per query and returns each query's median; with warmFirst,
// one untimed call per query comes first.
func perQuery(b *testing.B, client *http.Client, base string, queries []query, limit, calls int, warmFirst bool) []time.Duration {
	out := make([]time.Duration, len(queries))
	for i, q := range queries {
		if warmFirst {
			if _, err := restCall(client, base, q, limit); err != nil {
				b.Fatal(err)
			}
		}
		var runs []time.Duration
		for range calls {
			t0 := time.Now()
			if _, err := restCall(client, base, q, limit); err != nil {
				b.Fatal(err)
			}
			runs = append(runs, time.Since(t0))
		}
		out[i] = median(runs)
	}
	return out
}

// allCalls times calls REST calls per query and returns every call's time.
func allCalls(b *testing.B, client *http.Client, base string, queries []query, limit, calls int) []time.Duration {
	var out []time.Duration
	for _, q := range queries {
		for range calls {
			t0 := time.Now()
			if _, err := restCall(client, base, q, limit); err != nil {
				b.Fatal(err)
			}
			out = append(out, time.Since(t0))
		}
	}
	return out
}

// delegateCalls times getTrips straight to the alliance's delegate: per query, the median of
// calls (after an untimed first call with warmFirst).
func delegateCalls(b *testing.B, a *testAlliance, queries []query, calls int, warmFirst bool) []time.Duration {
	c := soap.NewSellerClient(a.machines[a.delegate()].url()+"/Services/SellerService", soap.ClientOptions{Timeout: 2 * time.Minute, MaxBody: 256 << 20})
	call := func(q query) {
		resp, err := c.GetTrips(context.Background(), soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String()})
		if err != nil || !resp.Complete {
			b.Fatalf("getTrips %v: %v", q, err)
		}
	}
	out := make([]time.Duration, len(queries))
	for i, q := range queries {
		if warmFirst {
			call(q)
		}
		var runs []time.Duration
		for range calls {
			t0 := time.Now()
			call(q)
			runs = append(runs, time.Since(t0))
		}
		out[i] = median(runs)
	}
	return out
}

// throughput runs n calls from the given number of concurrent clients and returns answers/s.
func throughput(b *testing.B, client *http.Client, base string, queries []query, limit, clients, n int) float64 {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n || failed.Load() != nil {
					return
				}
				if _, err := restCall(client, base, queries[k%len(queries)], limit); err != nil {
					failed.Store(&err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	return float64(n) / time.Since(start).Seconds()
}

// profileREST runs the warm and cold REST loops through in-process search servers registered
// with the alliances' delegates, under the CPU profiler.
func profileREST(b *testing.B, dir string, cold, warm *testAlliance, queries []query) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}, Timeout: 2 * time.Minute}
	for _, run := range []struct {
		name string
		a    *testAlliance
	}{{"warm", warm}, {"cold", cold}} {
		s, err := search.New(search.Config{RegistrationTTL: time.Hour, DelegateTimeout: time.Minute, HedgeDelay: time.Minute,
			Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(s.Handler())
		body, _ := json.Marshal(search.RegisterBody{URI: run.a.machines[run.a.delegate()].url() + "/Services/SellerService"})
		req, _ := http.NewRequest(http.MethodPut, srv.URL+"/Services/FlightsSearchReg/Register/"+run.a.name, strings.NewReader(string(body)))
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("register with the in-process search server: %v %v", resp, err)
		}
		resp.Body.Close()
		for _, q := range queries { // connections, WSDL and (warm) the delegate's cache
			if _, err := restCall(client, srv.URL, q, 0); err != nil {
				b.Fatal(err)
			}
		}
		path := filepath.Join(dir, "cpu-rest-"+run.name+".pprof")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		perQuery(b, client, srv.URL, queries, 0, 3, false)
		allCalls(b, client, srv.URL, queries, 20, 3)
		pprof.StopCPUProfile()
		f.Close()
		srv.Close()
		b.Logf("CPU profile of the REST path (%s): %s (go tool pprof -top %s)", run.name, path, path)
	}
}

// searchMetrics reads the sums and counts of the search server's histograms from /metrics, by
// series name; a labelled series is written name{labels}_sum and name{labels}_count.
func searchMetrics(b *testing.B, client *http.Client, base string) map[string]float64 {
	resp, err := client.Get(base + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		if base, labels, ok := strings.Cut(name, "{"); ok {
			for _, suffix := range []string{"_sum", "_count"} {
				if strings.HasSuffix(base, suffix) {
					name = strings.TrimSuffix(base, suffix) + "{" + labels + suffix
				}
			}
		}
		v, err := strconv.ParseFloat(value, 64)
		if err == nil {
			out[name] = v
		}
	}
	return out
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux).
const clockTicks = 100

// cpuTicksOf is the user and system CPU time the process has used, in clock ticks.
func cpuTicksOf(p *proc) int64 {
	p.mu.Lock()
	pid := p.cmd.Process.Pid
	p.mu.Unlock()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime
}

// cpuTicks is every running machine's CPU time, by machine name.
func (a *testAlliance) cpuTicks() map[string]int64 {
	out := map[string]int64{}
	for _, n := range a.live() {
		out[n] = cpuTicksOf(a.machines[n].proc)
	}
	return out
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
