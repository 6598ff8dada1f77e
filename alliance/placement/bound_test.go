package placement

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// moveStats sums moved copies against the lower bound, per kind of event.
type moveStats struct {
	rounds, moved, bound, excessRounds int
	worst                              float64
}

// TestMovementAgainstLowerBound compares the copies each round fetches with lowerBound, the
// fetches any planner must make, and logs the ratio per kind of event (run with -v). It fails
// when a round moves fewer copies than the bound (the bound or the checker would be wrong), and
// when a round with a single crash moves more than the bound plus a slack of two copies (the
// package documents fetched = lost for it; the slack covers the rare backup shift).
func TestMovementAgainstLowerBound(t *testing.T) {
	stats := map[string]*moveStats{}
	rapid.Check(t, func(rt *rapid.T) {
		runSequence(rt, func(e event, s Snapshot, res Result) {
			moved, bound := len(res.Transfers), lowerBound(s)
			if moved < bound {
				rt.Fatalf("%s: moved %d copies, below the lower bound %d", e.kind(), moved, bound)
			}
			if e.kind() == "fail×1" && moved > bound+2 {
				rt.Fatalf("%s: moved %d copies, lower bound %d:\n%s\nsnapshot:\n%s", e.kind(), moved, bound, formatResult(res), formatSnapshot(s))
			}
			st := stats[e.kind()]
			if st == nil {
				st = &moveStats{}
				stats[e.kind()] = st
			}
			st.rounds++
			st.moved += moved
			st.bound += bound
			if moved > bound {
				st.excessRounds++
			}
			if bound > 0 {
				st.worst = max(st.worst, float64(moved)/float64(bound))
			}
		})
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %7s %8s %8s %6s %8s %6s\n", "event", "rounds", "moved", "bound", "ratio", "excess%", "worst")
	for _, kind := range slices.Sorted(maps.Keys(stats)) {
		st := stats[kind]
		ratio := 1.0
		if st.bound > 0 {
			ratio = float64(st.moved) / float64(st.bound)
		}
		fmt.Fprintf(&b, "%-22s %7d %8d %8d %6.3f %7.1f%% %6.2f\n", kind, st.rounds, st.moved, st.bound, ratio,
			100*float64(st.excessRounds)/float64(st.rounds), st.worst)
	}
	t.Logf("moved copies against the lower bound:\n%s", b.String())
}
