package integration

import (
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// TestTheDelegateKeepsItsAnswersWithinItsBudget runs a secure alliance whose machines may keep 1
// MiB of answers (--cache-mib 1: some 1,200 trips) and searches more than that through the search
// server, twice: at every scrape the delegate's kept answers cost at most the budget, fewer than
// the queries are kept (the least recently used went), every answer let go is computed again (a
// cache miss), and every answer is complete and equal to the reference.
func TestTheDelegateKeepsItsAnswersWithinItsBudget(t *testing.T) {
	base, _ := framework.StartSearch(t, t.TempDir(), "--answer-cache", "0")
	a := startAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}},
		allianceOpts{extra: []string{"--cache-mib", "1"}, search: []string{base}, perDay: 800, days: 1})
	a.waitSettled(90 * time.Second)
	queries, _ := a.readyQueries(base, 24)
	delegate := a.delegate()
	// The searches must reach the delegate whose counters are read: a machine that registered
	// first by mistake (its view had nobody before it yet) keeps the registration until the
	// delegate's next refresh, and answers the searches meanwhile (a CI failure: 0 misses read).
	a.waitRegistered(base, delegate, time.Minute)
	metrics := a.machines[delegate].url() + "/metrics"
	const budget = 1 << 20
	answers := func() float64 { return metricSum(t, metrics, "flightalliance_airline_cache_answers") }
	misses := func() float64 { return metricSum(t, metrics, "flightalliance_airline_cache_misses_total") }
	missed, kept := misses(), 0.0
	for pass := range 2 {
		kept += answers() // the most of this pass's searches that can be hits
		for _, q := range queries {
			if err := checkSearch(base, []*testAlliance{a}, []query{q}); err != nil {
				t.Fatalf("pass %d: %v", pass, err)
			}
			if bytes := metricSum(t, metrics, "flightalliance_airline_cache_bytes"); bytes > budget {
				t.Fatalf("pass %d, after %v: the delegate's kept answers cost %.0f bytes, more than %d", pass, q, bytes, budget)
			}
		}
	}
	t.Logf("%d queries asked twice: %.0f answers kept, %.0f bytes; %.0f cache misses (%.0f kept before the passes in all)", len(queries),
		answers(), metricSum(t, metrics, "flightalliance_airline_cache_bytes"), misses()-missed, kept)
	if answers() >= float64(len(queries)) {
		t.Errorf("%.0f answers kept of %d queries of more than 1 MiB: the budget let none go", answers(), len(queries))
	}
	// Each pass asks every query once; of those, only the answers kept before it can be hits.
	if want := 2*float64(len(queries)) - kept; misses()-missed < want {
		t.Errorf("%.0f cache misses for %d queries asked twice with %.0f kept before the passes: want %.0f or more, each let go computed again",
			misses()-missed, len(queries), kept, want)
	}
}
