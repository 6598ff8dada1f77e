package integration

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// TestMemoryStaysWithinItsBudgets runs a secure alliance of three machines behind a search
// server, every cache given a small budget (the delegate's answers --cache-mib 4, its flight lists
// --flights-cache 20000, the search server's answers --answer-cache 4), and searches 150 pairs of
// airports no round asked before in each of five rounds: far more than the budgets hold, so the
// caches are full after the first round. After every round from the third, each process's live
// heap (after two collections) must be within a twentieth and 2 MiB of what it was after the
// second: a cache that ignores its budget, or anything kept per query, grows round after round.
func TestMemoryStaysWithinItsBudgets(t *testing.T) {
	searchPprof := framework.FreeAddr(t)
	base, search := framework.StartSearch(t, t.TempDir(), "--answer-cache", "4", "--pprof", searchPprof)
	a := startAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}},
		allianceOpts{extra: []string{"--cache-mib", "4", "--flights-cache", "20000"}, search: []string{base}, perDay: 2000, days: 1,
			pprof: true})
	a.waitSettled(90 * time.Second)
	const rounds, perRound = 5, 150
	first, _ := a.readyQueries(base, 1)
	var queries []query
	for _, q := range busyQueries(a.activeData(), 4*rounds*perRound) {
		if q.String() != first[0].String() && len(queries) < rounds*perRound {
			queries = append(queries, q)
		}
	}
	if len(queries) < rounds*perRound {
		t.Fatalf("only %d pairs of airports with trips, want %d", len(queries), rounds*perRound)
	}
	procs := []watchedProcess{{name: "search", metrics: base + "/metrics", pprof: "http://" + searchPprof, proc: search}}
	for _, name := range a.order {
		m := a.machines[name]
		procs = append(procs, watchedProcess{name: name, metrics: m.url() + "/metrics", pprof: "http://" + m.pprof, proc: m.proc})
	}

	var baseline map[string]uint64
	for round := range rounds {
		complete := searchAll(t, base, queries[round*perRound:(round+1)*perRound], 8)
		heaps := liveHeaps(t, procs)
		t.Logf("round %d: %d answers complete; live heaps %v", round, complete, heaps)
		if complete != perRound {
			t.Fatalf("round %d: %d answers of %d complete: with every machine up, small caches must cost time, not answers",
				round, complete, perRound)
		}
		switch {
		case round == 0: // the caches fill up
		case baseline == nil:
			baseline = heaps
		default:
			for _, p := range procs {
				if limit := baseline[p.name] + baseline[p.name]/20 + 2<<20; heaps[p.name] > limit {
					t.Errorf("after round %d: %s's live heap is %d MiB, %d MiB after the second round (at most %d MiB)", round, p.name,
						heaps[p.name]>>20, baseline[p.name]>>20, limit>>20)
				}
			}
		}
	}
}

// searchAll asks the search server every query (whole answers), clients at once, and returns how
// many answers came complete; an error or a wrong status fails the test.
func searchAll(t *testing.T, base string, queries []query, clients int) (complete int) {
	t.Helper()
	client := &http.Client{Transport: http1Transport(), Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	next := make(chan query)
	var mu sync.Mutex
	var failures []string
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for q := range next {
				ans, err := getAnswer(client, searchURL(base, q))
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, err.Error())
				case ans.Complete:
					complete++
				}
				mu.Unlock()
			}
		})
	}
	for _, q := range queries {
		next <- q
	}
	close(next)
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d searches failed, the first: %s", len(failures), failures[0])
	}
	return complete
}

// liveHeaps is each process's live heap (by name): the heap in use after two collections (the
// second empties what sync.Pools kept through the first), as its heap profile reports it.
func liveHeaps(t testing.TB, procs []watchedProcess) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, p := range procs {
		for range 2 {
			out[p.name] = heapAlloc(t, p)
		}
	}
	return out
}

// heapAlloc collects p's garbage (/debug/pprof/heap?gc=1) and reads its HeapAlloc from the
// profile's runtime.MemStats.
func heapAlloc(t testing.TB, p watchedProcess) uint64 {
	t.Helper()
	profile := p.profile(t, "heap?gc=1&debug=1")
	for line := range strings.Lines(string(profile)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "# HeapAlloc = "); ok {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatalf("%s's heap: %q", p.name, line)
			}
			return n
		}
	}
	t.Fatalf("%s's heap profile names no HeapAlloc", p.name)
	return 0
}
