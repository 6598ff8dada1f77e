package integration

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/tests/framework"
	"flightalliance/tests/framework/goroutines"
)

// watchedProcess is a process TestNothingLeaksRoundAfterRound follows: its /metrics, where it
// serves its runtime profiles (--pprof), and its process (whose open files /proc lists).
type watchedProcess struct {
	name, metrics, pprof string
	proc                 *framework.Proc
}

// processLevel is what a process holds: goroutines and open files (sockets included), less
// those of the connections it keeps open between requests (goroutines.Stacks.Pooled), and how
// many of those there are.
type processLevel struct{ goroutines, fds, pooled float64 }

func (l processLevel) String() string {
	return fmt.Sprintf("%.0fg/%.0ffd+%.0fpooled", l.goroutines, l.fds, l.pooled)
}

// within reports whether l is at most base plus what a round may leave without a leak: a
// twentieth and 5 goroutines, 5 files, and twice the kept connections or 16 more (the pools
// fill up to their limits as the calls that run at once vary; a client that keeps making new
// pools, or a connection that is never closed, goes on growing). A leak of one per search or per
// holder call is 10 to 200 per round, and rounds add up.
func (l processLevel) within(base processLevel) error {
	if l.goroutines > base.goroutines*1.05+5 {
		return fmt.Errorf("%.0f goroutines, %.0f at the baseline", l.goroutines, base.goroutines)
	}
	if l.fds > base.fds+5 {
		return fmt.Errorf("%.0f open files, %.0f at the baseline", l.fds, base.fds)
	}
	if l.pooled > max(2*base.pooled, base.pooled+16) {
		return fmt.Errorf("%.0f kept connections, %.0f at the baseline", l.pooled, base.pooled)
	}
	return nil
}

// levelSnapshot is every followed process's level at one moment, and its goroutines' stacks
// then: what grew is named by comparing them when a level does not come back.
type levelSnapshot struct {
	procs  []watchedProcess
	levels map[string]processLevel
	stacks map[string]goroutines.Stacks
	files  map[string]map[string]int // process → what its open files are → how many
}

// readLevels reads each process's level (by name).
func readLevels(t testing.TB, procs []watchedProcess) map[string]processLevel {
	t.Helper()
	out := map[string]processLevel{}
	for _, p := range procs {
		if !p.proc.Running() {
			t.Fatalf("%s is not running", p.name)
		}
		stacks := readStacks(t, p)
		goroutines, conns := stacks.Pooled()
		out[p.name] = processLevel{goroutines: float64(stacks.Total() - goroutines),
			fds: metricSum(t, p.metrics, "process_open_fds") - float64(conns), pooled: float64(conns)}
	}
	return out
}

// restingLevels reads the levels ten times, 100 ms apart, and keeps each process's median: what
// comes and goes (a registration's renewal, a status poll, a connection closing between reading
// the stacks and the files) is left out, and a leak, which stays, is not.
func restingLevels(t testing.TB, procs []watchedProcess) map[string]processLevel {
	t.Helper()
	const readings = 10
	goroutines, fds, pooled := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	for i := range readings {
		if i > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		for name, l := range readLevels(t, procs) {
			goroutines[name] = append(goroutines[name], l.goroutines)
			fds[name] = append(fds[name], l.fds)
			pooled[name] = append(pooled[name], l.pooled)
		}
	}
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	out := map[string]processLevel{}
	for name := range goroutines {
		out[name] = processLevel{goroutines: median(goroutines[name]), fds: median(fds[name]), pooled: median(pooled[name])}
	}
	return out
}

// baselineOf is the processes' resting levels now, with their goroutines' stacks.
func baselineOf(t testing.TB, procs []watchedProcess) *levelSnapshot {
	t.Helper()
	s := &levelSnapshot{procs: procs, levels: restingLevels(t, procs), stacks: map[string]goroutines.Stacks{},
		files: map[string]map[string]int{}}
	for _, p := range procs {
		s.stacks[p.name], s.files[p.name] = readStacks(t, p), openFiles(p.proc.Pid())
		if s.levels[p.name].pooled == 0 {
			// The test's own readings keep a connection open: none seen means the stacks of
			// kept connections are no longer told apart (a new Go, new frames), and every one
			// would count as a leak, or none.
			t.Fatalf("%s: no kept connection among its goroutines:\n%v", p.name, s.stacks[p.name])
		}
	}
	return s
}

// expectBack waits until every process's resting level is back within its baseline; if one is
// not within 30 s, the test fails naming the stacks whose goroutines grew most, and keeps both
// goroutine profiles with the logs of the failed test.
func (s *levelSnapshot) expectBack(t testing.TB, when string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		now := restingLevels(t, s.procs)
		var over []string
		for _, p := range s.procs {
			if err := now[p.name].within(s.levels[p.name]); err != nil {
				over = append(over, p.name+": "+err.Error())
			}
		}
		if len(over) == 0 {
			t.Logf("%s: back to the baseline: %v", when, now)
			return
		}
		if time.Now().After(deadline) {
			var report strings.Builder
			for _, p := range s.procs {
				if now[p.name].within(s.levels[p.name]) != nil {
					report.WriteString(s.grown(t, p))
				}
			}
			t.Fatalf("%s: not back to the baseline within 30s: %s\n%s", when, strings.Join(over, "; "), report.String())
		}
	}
}

// grown names the stacks of p whose goroutines grew most since the baseline, and keeps both
// profiles where the logs of a failed test are kept.
func (s *levelSnapshot) grown(t testing.TB, p watchedProcess) string {
	t.Helper()
	now := readStacks(t, p)
	keep := framework.KeptLogsDir(t)
	if os.MkdirAll(keep, 0o755) == nil {
		_ = os.WriteFile(filepath.Join(keep, p.name+"-goroutines-baseline.txt"), []byte(s.stacks[p.name].String()), 0o644)
		_ = os.WriteFile(filepath.Join(keep, p.name+"-goroutines-now.txt"), []byte(now.String()), 0o644)
	}
	type growth struct {
		stack string
		by    int
	}
	var grew []growth
	for stack, n := range now {
		if d := n - s.stacks[p.name][stack]; d > 0 && stack != "" && goroutines.KindOf(stack) == "" {
			grew = append(grew, growth{stack, d})
		}
	}
	slices.SortFunc(grew, func(a, b growth) int { return cmp.Compare(b.by, a.by) })
	var out strings.Builder
	fmt.Fprintf(&out, "%s's goroutines that grew most, kept connections aside (both profiles in %s):\n", p.name, keep)
	for _, g := range grew[:min(5, len(grew))] {
		fmt.Fprintf(&out, "+%d\n  %s\n", g.by, strings.ReplaceAll(g.stack, "\n", "\n  "))
	}
	fmt.Fprintf(&out, "%s's open files that grew:", p.name)
	files := openFiles(p.proc.Pid())
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if d := files[f] - s.files[p.name][f]; d > 0 {
			fmt.Fprintf(&out, " +%d %s;", d, f)
		}
	}
	return out.String() + "\n"
}

// readStacks reads p's goroutine profile from its --pprof address.
func readStacks(t testing.TB, p watchedProcess) goroutines.Stacks {
	t.Helper()
	return goroutines.Parse(bytes.NewReader(p.profile(t, "goroutine?debug=1")))
}

// profile fetches one of p's runtime profiles (/debug/pprof/<query>) from its --pprof address.
func (p watchedProcess) profile(t testing.TB, query string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.pprof+"/debug/pprof/"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s's %s: %v", p.name, query, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s's %s: %s %v", p.name, query, resp.Status, err)
	}
	return body
}
