package integration

import (
	"testing"
	"time"
)

// TestTheDelegateKeepsItsAnswersWithinItsBudget runs a secure alliance whose machines may keep 1
// MiB of answers (--cache-mib 1: some 1,300 trips) and searches more than that through the
// search server: at every scrape the delegate's kept answers cost at most the budget, fewer than
// the queries are kept (the least recently used went), and every answer — the second time too,
// computed again when it was let go — is complete and equal to the reference.
func TestTheDelegateKeepsItsAnswersWithinItsBudget(t *testing.T) {
	base, _ := startSearch(t, t.TempDir(), "--answer-cache", "0")
	a := startAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}},
		allianceOpts{extra: []string{"--cache-mib", "1"}, search: []string{base}, perDay: 800, days: 1})
	a.waitSettled(90 * time.Second)
	queries, _ := a.readyQueries(base, 24)
	delegate := a.delegate()
	metrics := a.machines[delegate].url() + "/metrics"
	const budget = 1 << 20
	for pass := range 2 {
		for _, q := range queries {
			if err := checkSearch(base, []*testAlliance{a}, []query{q}); err != nil {
				t.Fatalf("pass %d: %v", pass, err)
			}
			if bytes := metricSum(t, metrics, "flightalliance_airline_cache_bytes"); bytes > budget || bytes == 0 {
				t.Fatalf("pass %d, after %v: the delegate's kept answers cost %.0f bytes, want 1 to %d", pass, q, bytes, budget)
			}
		}
	}
	answers := metricSum(t, metrics, "flightalliance_airline_cache_answers")
	misses := metricSum(t, metrics, "flightalliance_airline_cache_misses_total")
	t.Logf("%d queries asked twice: %.0f answers kept, %.0f bytes; %.0f cache misses", len(queries), answers,
		metricSum(t, metrics, "flightalliance_airline_cache_bytes"), misses)
	if answers >= float64(len(queries)) {
		t.Errorf("%.0f answers kept of %d queries of more than 1 MiB: the budget let none go", answers, len(queries))
	}
	if misses <= float64(len(queries)) {
		t.Errorf("%.0f cache misses for %d queries asked twice: none was computed again", misses, len(queries))
	}
}
