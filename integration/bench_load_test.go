package integration

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// The load: loadWorkers clients in a closed loop over loadQueries airport pairs; pages are
// limit=loadPage.
const (
	loadWorkers = 16
	loadQueries = 200
	loadPage    = 20
)

// BenchmarkSearchUnderLoad measures a steady load: 16 clients, each on its own HTTP/1.1
// connection to the search server, in a closed loop (a client sends its next search when its
// last answer is read), beside the in-process reference measured in the same run on the same
// cores. The setup is BenchmarkSearchREST's: 5 machines × 1 seller × 10,000 flights a day, one
// day, secure as every test alliance; one search server with its defaults (hedge delay,
// delegate timeout), the machines with theirs (--hedge-after), the delegate caching (the
// default); 200 random airport pairs, the same every run (a 201st only waits for the first
// complete answer, so the 200 are cold at the start). The connections between the processes are
// opened before (warmConns, warmPools), as in a server that has been running.
//
//   - ref-answers/s: 16 goroutines in this process computing the reference answer
//     (refQuery.answer: the hash join and sort of trip.Build, the search server's JSON) of
//     each query 3 times, from the query's flights picked out beforehand, after a round not
//     timed (the process's first is its slowest: see refThroughput); measured before the
//     phases and again after them, the faster of the two (the same code's rate moves by a
//     third between runs on this machine, and the limit is what it can do). ref-p99/p50: the
//     spread of the reference's own latencies, each query once on one goroutine (the work of
//     the answers is unequal: 408 trips at the 10th percentile, 2,648 at the median, 24,020 at
//     the 99th).
//   - pages-cold: each query once, limit=20, its first page, while the delegate's answer cache
//     is empty: every search joins and sorts its trips, from flights gathered from the machines
//     or, for a seller whose lists out of the source and into the destination an earlier search
//     of the pass brought (the delegate's --flights-cache, on as by default), kept ones — the
//     log gives the sellers kept and asked ("flight lists kept/asked"; the 200 pairs have 59
//     sources and 60 destinations); pages-warm: the same again, every list now cached. p50 and
//     p99 of the answers' latencies, and pages/s over the pass's wall time.
//   - whole: each query twice, the whole list. The page passes computed only each list's first
//     100 trips (gather: trip.Cheapest) — or the whole list when it has no more — so the first
//     time through, the delegate joins and sorts the whole list (from the flights it kept of the
//     page passes: no holder is asked), and the search server decodes, merges and encodes it; the
//     second time, the search server asks with the ETag of the answer it kept and sends that
//     (the delegate says NotModified). Between the two halves, this is the work of the
//     reference (the join, the sort and the JSON, once per query), plus the two hops.
//     whole/ref is whole-answers/s ÷ ref-answers/s, on the same 200 queries (their mean cost,
//     not the median's); whole-p99/p50-per-ref is whole-p99/p50 ÷ ref-p99/p50: the spread of
//     the whole answers' latencies beside the spread of their work (1: the latencies spread
//     no more than the answers' own cost does).
//
// A latency is the time of the attempt that was answered: a 503 is counted in <phase>-shed
// and retried after its Retry-After (1 s when it has none), and that wait counts in the phase's
// throughput, not in its latencies. Every answer is checked against the reference: byte for
// byte, or else (after the phase, outside the timed loop) decoded and compared trip by trip —
// prices and flights in order, the total, complete with no missing seller; not-byte-equal
// counts the distinct bodies that were equal only that way. A wrong or incomplete answer, or an
// error other than a 503, fails the benchmark once every phase has run.
//
// Around each phase the search server's and every machine's /metrics (the machines serve it on
// their SOAP address) are read: <phase>-hedges-sent, -won and -refused are the search server's
// search_hedges_{sent,won,refused}_total plus the machines' flightalliance_airline_hedges_*
// _total, and <phase>-hedges/calls is hedges sent ÷ (search_delegate_calls_total + the machines'
// flightalliance_airline_holder_calls_total). A counter a build does not have counts 0 (and
// hedges/calls is 0 when there are no call counters). The log also gives, per phase, the older
// counters (search_alternate_calls_total, flightalliance_airline_hedged_sellers_total), the
// machines' cache hits, misses and shared searches (summed: an alternate caches too), the CPU
// time of the search server, the delegate, the other machines and this process (the clients and
// the checks), and the connections dialed; and the CPU time of every process during ref.
//
// FA_MAX_SEARCHES, when set, is the search server's --max-searches (the default is 256: every
// search of the load is admitted at once); FA_SEARCH_FLAGS are more flags for the search server
// ("--ordered-searches 0"); FA_AIRLINE_FLAGS are more flags for every machine
// ("--hedge-after 2s"); FA_TIMELINE_DIR, a directory for each phase's answers in the order their
// searches began, when each began, how long it took and which query it was (<phase>.txt).
//
// The figures are reported, never asserted. It takes well under a minute after the build. Run
// it alone with
//
//	go test -run '^$' -bench SearchUnderLoad -benchtime=1x ./integration/
func BenchmarkSearchUnderLoad(b *testing.B) {
	sellers := map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}, "m4": {"AF"}, "m5": {"BA"}}
	dir := b.TempDir()
	searchFlags := []string{"--log-level", "warn"}
	if n := os.Getenv("FA_MAX_SEARCHES"); n != "" {
		searchFlags = append(searchFlags, "--max-searches", n)
	}
	searchFlags = append(searchFlags, strings.Fields(os.Getenv("FA_SEARCH_FLAGS"))...)
	base, searchProc := framework.StartSearch(b, dir, searchFlags...)
	a := startAlliance(b, "warm", sellers, allianceOpts{perDay: 10000, days: 1, search: []string{base},
		extra: strings.Fields(os.Getenv("FA_AIRLINE_FLAGS"))})
	a.waitSettled(3 * time.Minute)
	data := a.activeData()
	all := randomQueries(data, loadQueries+1)
	queries, probe := all[:loadQueries], all[loadQueries]
	l := &loadRun{base: base, searchProc: searchProc, alliance: a, queries: queries}
	client := l.newClient()
	framework.Eventually(b, time.Minute, "the alliance answers complete through "+base, func() error {
		_, err := restCall(client, base, probe, 0)
		return err
	})
	l.delegate = a.delegate()
	inputs := make([]refQuery, len(queries))
	trips := make([]float64, len(queries))
	for i, q := range queries {
		inputs[i] = refInput(data, q)
		trips[i] = float64(refAnswerOf(inputs[i], 1).Total)
	}
	l.checks = newLoadChecks(inputs, loadPage)
	l.warmConns(b, client)
	l.warmPools(b, client)

	b.ResetTimer()
	refBefore := l.snapshot(b, client)
	refPerSec := refThroughput(inputs, loadWorkers, 3)
	refAfter := l.snapshot(b, client)
	phases := []*loadPhase{
		l.run(b, client, "pages-cold", loadPage, len(queries)),
		l.run(b, client, "pages-warm", loadPage, len(queries)),
		l.run(b, client, "whole", 0, 2*len(queries)),
	}
	refAgain := refThroughput(inputs, loadWorkers, 3)
	b.StopTimer()

	var summary []string
	report := func(v float64, unit string) {
		b.ReportMetric(v, unit)
		summary = append(summary, fmt.Sprintf("%.4g %s", v, unit))
	}
	b.Logf("ref: %d answers in %.2f s; CPU s: this process %.2f, search server %.2f, delegate %.2f, other machines %.2f",
		3*len(inputs), refAfter.at.Sub(refBefore.at).Seconds(), float64(refAfter.clientCPU-refBefore.clientCPU)/clockTicks,
		float64(refAfter.searchCPU-refBefore.searchCPU)/clockTicks, float64(refAfter.delegateCPU-refBefore.delegateCPU)/clockTicks,
		float64(refAfter.othersCPU-refBefore.othersCPU)/clockTicks)
	report(float64(len(queries)), "queries")
	report(medianF(trips), "median-trips")
	b.Logf("ref: %.0f answers/s before the phases, %.0f after", refPerSec, refAgain)
	refPerSec = max(refPerSec, refAgain)
	report(refPerSec, "ref-answers/s")
	spread := refSpread(inputs)
	report(spread, "ref-p99/p50")
	var failures []string
	for _, p := range phases {
		perSec := "/s"
		if p.name == "whole" {
			perSec = "-answers/s"
		}
		p50, p99 := p.quantile(0.50), p.quantile(0.99)
		report(ms(p50), p.name+"-p50-ms")
		report(ms(p99), p.name+"-p99-ms")
		report(float64(p99)/float64(max(p50, 1)), p.name+"-p99/p50")
		report(float64(len(p.lat))/p.wall.Seconds(), p.name+perSec)
		if p.name == "whole" {
			report(float64(len(p.lat))/p.wall.Seconds()/refPerSec, "whole/ref")
			report(float64(p99)/float64(max(p50, 1))/spread, "whole-p99/p50-per-ref")
		}
		report(float64(p.shed.Load()), p.name+"-shed")
		// The work the phase took and how busy the cores were: a phase whose cores are all busy is
		// bound by CPU, and its latencies follow the CPU time every answer cost (every process's).
		report(p.cpuPerAnswer(), p.name+"-cpu-ms/answer")
		report(p.cores.busy(), p.name+"-cores-busy")
		d := p.delta
		report(d("search_hedges_sent_total")+d("flightalliance_airline_hedges_sent_total"), p.name+"-hedges-sent")
		report(d("search_hedges_won_total")+d("flightalliance_airline_hedges_won_total"), p.name+"-hedges-won")
		report(d("search_hedges_refused_total")+d("flightalliance_airline_hedges_refused_total"), p.name+"-hedges-refused")
		hedges := d("search_hedges_sent_total") + d("flightalliance_airline_hedges_sent_total")
		calls := d("search_delegate_calls_total") + d("flightalliance_airline_holder_calls_total")
		ratio := 0.0
		if calls > 0 {
			ratio = hedges / calls
		}
		report(ratio, p.name+"-hedges/calls")
		b.Logf("%s", p.describe())
		if dir := os.Getenv("FA_TIMELINE_DIR"); dir != "" {
			if err := p.writeTimeline(dir); err != nil {
				b.Errorf("timeline of %s: %v", p.name, err)
			}
		}
		if p.errors > 0 {
			failures = append(failures, fmt.Sprintf("%s: %d errors, the first: %s", p.name, p.errors, strings.Join(p.firstErrs, "; ")))
		}
		if p.wrong != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", p.name, p.wrong))
		}
	}
	report(float64(l.checks.notByteEqual), "not-byte-equal")
	if l.checks.example != "" {
		b.Logf("an answer not byte for byte the reference's: %s", l.checks.example)
	}
	b.Logf("BenchmarkSearchUnderLoad: %s", strings.Join(summary, ", "))
	if len(failures) > 0 {
		b.Fatalf("wrong answers or errors under load:\n%s", strings.Join(failures, "\n"))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
