package integration

import (
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// BenchmarkSearchREST measures the REST path against an in-process reference, on the same
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
//   - floor: per query, ref plus the time the answer's bytes take to cross its two hops over
//     TLS by themselves (transfers: the delegate's SOAP, median-soap-KiB, and the JSON), what
//     rest-cold would be if the hops did no work but the reference's; floor/ref and
//     rest-cold/floor are per query, their median reported.
//   - rest-cold: GET /Services/FlightsSearch/flight through a search server process that keeps
//     no answers (--answer-cache 0), whose alliance runs with --cache-mib 0 --flights-cache 0:
//     every search gathers flights from the machines, joins and sorts them at the delegate, which
//     sends the whole list, and the search server decodes it and encodes it as JSON. (It must
//     keep no answers: one that keeps them asks again with their ETags, and the second and
//     third calls of a query are answered by the delegate's "not modified" — a gather and a
//     join, but not the two encodings and a megabyte less over each hop.) rest-warm: through a search server that
//     keeps answers, whose alliance caches, after a first call per query. Each is the median of
//     3 calls per query; the ratios are per query, their median reported. The client speaks
//     HTTP/1.1, as BenchmarkSearchUnderLoad's; rest-cold-h2 and rest-warm-h2 are the same calls
//     over HTTP/2, what a Go client (or curl, or a browser) agrees on by default.
//   - paged-cold: limit=20 through the uncached alliance, p50 over 3 calls per query.
//   - answers/s: 4 concurrent clients, whole lists through the caching alliance; paged-answers/s
//     the same with limit=20 through the uncached one.
//   - delegate-*: getTrips straight to the delegate with the SOAP client (what REST adds is the
//     difference), and the CPU time each process spent per warm answer (search server, delegate,
//     other machines), read from /proc.
//   - cold-delegate-search-mean-ms, cold-fanout-mean-ms, cold-handler-mean-ms: where the time of
//     the rest-cold calls goes, from the processes' own histograms (means): the delegate's
//     getTrips (gather, join, sort), the search server's call of it (plus the SOAP encoding,
//     both ends of TLS and the decoding), the search server's handler (plus the merge and the
//     JSON).
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
	coldBase, _ := framework.StartSearch(b, dir, append(slices.Clone(searchFlags), "--answer-cache", "0")...)
	warmBase, warmSearch := framework.StartSearch(b, dir, searchFlags...)
	cold := startAlliance(b, "cold", sellers, allianceOpts{extra: []string{"--cache-mib", "0", "--flights-cache", "0"}, perDay: 10000, days: 1, search: []string{coldBase}})
	warm := startAlliance(b, "warm", sellers, allianceOpts{perDay: 10000, days: 1, search: []string{warmBase}})
	cold.waitSettled(3 * time.Minute)
	warm.waitSettled(3 * time.Minute)
	data := warm.activeData() // the same generated data as cold's
	queries := randomQueries(data, 40)
	client := &http.Client{Transport: tuned(http1Transport(), 8), Timeout: 2 * time.Minute}
	h2Client := &http.Client{Transport: tuned(testerTransport(), 8), Timeout: 2 * time.Minute}
	for _, base := range []string{coldBase, warmBase} {
		framework.Eventually(b, time.Minute, "the alliance answers complete through "+base, func() error {
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

	// The reference plus the bytes of the answer's two hops (transfers).
	moved, soapSizes := transfers(b, cold, queries, sizes)
	floor := make([]time.Duration, len(queries))
	for i := range floor {
		floor[i] = ref[i] + moved[i]
	}

	// Cold: every search gathers from the machines.
	coldDelegate := cold.machines[cold.delegate()].url()
	coldSearchBefore, coldDelegateBefore := searchMetrics(b, client, coldBase), searchMetrics(b, client, coldDelegate)
	restCold := perQuery(b, client, coldBase, queries, 0, 3, false)
	coldSearchAfter, coldDelegateAfter := searchMetrics(b, client, coldBase), searchMetrics(b, client, coldDelegate)
	restColdH2 := perQuery(b, h2Client, coldBase, queries, 0, 3, false)
	pagedCold := allCalls(b, client, coldBase, queries, 20, 3)
	delegateCold := delegateCalls(b, cold, queries, 3, false)
	// Warm: the first call per query fills the delegate's cache.
	warmDelegate := warm.delegate()
	machinesBefore, searchBefore, metricsBefore := warm.cpuTicks(), cpuTicksOf(warmSearch), searchMetrics(b, client, warmBase)
	restWarm := perQuery(b, client, warmBase, queries, 0, 3, true)
	warmCalls := float64(len(queries) * 4)
	machinesAfter, searchAfter, metricsAfter := warm.cpuTicks(), cpuTicksOf(warmSearch), searchMetrics(b, client, warmBase)
	delegateWarm := delegateCalls(b, warm, queries, 3, true)
	restWarmH2 := perQuery(b, h2Client, warmBase, queries, 0, 3, true)
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
	b.ReportMetric(medianF(soapSizes)/1024, "median-soap-KiB")
	b.ReportMetric(ms(median(floor)), "floor-ms")
	b.ReportMetric(ratio(floor), "floor/ref")
	b.ReportMetric(ratioTo(floor, restCold), "rest-cold/floor")
	b.ReportMetric(ratioTo(refStd, restWarm), "rest-warm/ref-stdjson")
	b.ReportMetric(ratioTo(refStd, restCold), "rest-cold/ref-stdjson")
	b.ReportMetric(ms(median(restWarm)), "rest-warm-ms")
	b.ReportMetric(ms(median(restCold)), "rest-cold-ms")
	b.ReportMetric(ratio(restWarm), "rest-warm/ref")
	b.ReportMetric(ratio(restCold), "rest-cold/ref")
	b.ReportMetric(ratio(restWarmH2), "rest-warm-h2/ref")
	b.ReportMetric(ratio(restColdH2), "rest-cold-h2/ref")
	b.ReportMetric(ratio(delegateWarm), "delegate-warm/ref")
	b.ReportMetric(ratio(delegateCold), "delegate-cold/ref")
	b.ReportMetric(ms(median(pagedCold)), "paged-cold-p50-ms")
	b.ReportMetric(answersPerSec, "answers/s")
	b.ReportMetric(pagedPerSec, "paged-answers/s")
	meanOf := func(before, after map[string]float64, name string) float64 {
		return 1000 * (after[name+"_sum"] - before[name+"_sum"]) / (after[name+"_count"] - before[name+"_count"])
	}
	mean := func(name string) float64 { return meanOf(metricsBefore, metricsAfter, name) }
	// Where a cold answer's time goes, hop by hop (means over the rest-cold calls): the
	// delegate's getTrips (gather, join, sort), the search server's call of the delegate (that,
	// plus the SOAP encoding, both TLS ends and the decoding), the search server's handler
	// (that, plus the merge and the JSON); rest-cold-ms (a median) adds the client's side.
	b.ReportMetric(meanOf(coldDelegateBefore, coldDelegateAfter, `flightalliance_airline_search_duration_seconds{cache="miss"}`), "cold-delegate-search-mean-ms")
	b.ReportMetric(meanOf(coldSearchBefore, coldSearchAfter, "search_fanout_duration_seconds"), "cold-fanout-mean-ms")
	b.ReportMetric(meanOf(coldSearchBefore, coldSearchAfter, `search_http_request_duration_seconds{route="/Services/FlightsSearch/flight"}`), "cold-handler-mean-ms")
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

	if dir := os.Getenv("FA_PPROF_DIR"); dir != "" {
		profileREST(b, dir, cold, warm, queries)
	}
}
