package integration

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// Three machines of five killed within the dead-member grace leave two of five etcd voters: no
// quorum, no rounds, no lease expiries. The two survivors hold a copy of every seller between
// them, so every answer must stay complete and equal to the reference (FA_QUORUM_LOSS_FOR, 60s by
// default); then the three restart with their command lines and the alliance settles by itself.
func TestQuorumLossKeepsAnswersComplete(t *testing.T) {
	hold := 60 * time.Second
	if v := os.Getenv("FA_QUORUM_LOSS_FOR"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("FA_QUORUM_LOSS_FOR: %v", err)
		}
		hold = d
	}
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "10s")
	a := newAllianceArgs(t, "star", map[string][]string{
		"m1": {"LY"}, "m2": {"UA"}, "m3": {"AF"}, "m4": {"BA"}, "m5": {"QF"},
	}, []string{"--dead-member-grace", "10m"}, base)
	a.waitSettled(120 * time.Second)
	queries, want := a.readyQueries(base, 4)

	a.kill("m5")
	a.waitSettled(60 * time.Second)
	a.kill("m4")
	a.waitSettled(60 * time.Second)
	a.kill("m3") // two of five voters left
	lost := time.Now()
	load := startSteadyLoad(base, queries, want, 100*time.Millisecond)
	framework.Eventually(t, hold+30*time.Second, fmt.Sprintf("%v of searches without quorum", hold), func() error {
		if since := time.Since(lost); since < hold {
			return fmt.Errorf("%v so far", since.Round(time.Second))
		}
		return nil
	})
	// /status stays truthful: the survivors serve every seller between them, and one acts.
	served, acting := map[string]bool{}, 0
	for _, n := range []string{"m1", "m2"} {
		st, err := a.status(n)
		if err != nil {
			t.Fatalf("%s's /status without quorum: %v", n, err)
		}
		for _, s := range st.Serving {
			served[s] = true
		}
		if st.Acting {
			acting++
		}
	}
	if len(served) != len(a.sellers()) || acting == 0 {
		t.Errorf("without quorum /status says m1 and m2 serve %v (want every one of %v) and %d act as delegate",
			slices.Sorted(maps.Keys(served)), a.sellers(), acting)
	}
	answers := load.finish()
	counts, p50, p99, bad := summarize(answers)
	t.Logf("without quorum for %v: %d searches: %d complete, %d incomplete, %d wrong, %d errors; latency p50 %v, p99 %v",
		hold, len(answers), counts[answerComplete], counts[answerIncomplete], counts[answerWrong], counts[answerError],
		p50.Round(time.Millisecond), p99.Round(time.Millisecond))
	if len(answers) == 0 || counts[answerComplete] != len(answers) {
		t.Errorf("not every answer complete and correct without quorum: %v", bad)
	}

	for _, n := range []string{"m3", "m4", "m5"} {
		a.restart(n)
	}
	took := a.waitSettled(180 * time.Second)
	t.Logf("the three machines restarted: settled %v later", took.Round(time.Millisecond))
	framework.Eventually(t, 60*time.Second, "answers complete after the restarts", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})
}
