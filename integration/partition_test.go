package integration

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// TestPartitionAndHeal cuts a machine off behind its proxies: the delegate keeps answering
// completely (asking the other holders once calls to the cut machine time out), the others
// repair around it once its lease expires, and after the heal it rejoins.
func TestPartitionAndHeal(t *testing.T) {
	a := newProxiedAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}}, nil)
	a.waitSettled(90 * time.Second)
	queries := busyQueries(a.activeData(), 3)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}

	a.partition("m2")
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatalf("right after cutting m2 off: %v", err)
	}
	took := a.waitSettled(60 * time.Second)
	t.Logf("placement settled without m2 %v after the partition", took)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}

	a.heal("m2")
	took = a.waitSettled(90 * time.Second)
	t.Logf("m2 back and placement settled %v after the heal", took)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}
}

// TestPartitionedEtcdLeaderCostsNobodyElseTheirSession cuts off the machine whose etcd member
// leads, under steady searches. The others elect a new leader, which may take longer than a
// client's keep-alive waits (a session TTL), but every lease lives on: no other machine may lose
// its session (its /status names the same lease throughout) or drop out of the view, and every
// answer stays complete. Healed, the cut machine comes back.
func TestPartitionedEtcdLeaderCostsNobodyElseTheirSession(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir)
	a := newProxiedAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}}, nil, base)
	a.waitSettled(90 * time.Second)
	queries, want := a.readyQueries(base, 3)
	leader, sessions := a.leaderAndSessions(30 * time.Second)
	others := slices.DeleteFunc(a.live(), func(n string) bool { return n == leader })
	load := startSteadyLoad(base, queries, want, 100*time.Millisecond)
	cut := time.Now()
	a.partition(leader)
	took := a.waitSettled(60 * time.Second)
	t.Logf("etcd leader %s cut off: settled without it after %v", leader, took.Round(time.Millisecond))
	// Past the session TTL again, with a new leader: the others' sessions are the ones they had.
	framework.Eventually(t, 30*time.Second, "a new etcd leader among the others", func() error {
		for _, n := range others {
			if st, err := a.status(n); err == nil && st.Member != nil && st.Member.IsLeader {
				return nil
			}
		}
		return fmt.Errorf("none of %v leads", others)
	})
	for _, n := range others {
		st, err := a.status(n)
		if err != nil || st.Session != sessions[n] {
			t.Errorf("%s lost its session while %s was cut off: lease %s, now %q (%v)", n, leader, sessions[n], st.Session, err)
		}
	}
	answers := load.finish()
	counts, _, _, bad := summarize(answers)
	t.Logf("%d searches since the cut: %d complete", len(answers), counts[answerComplete])
	if len(answers) == 0 || counts[answerComplete] != len(answers) {
		t.Errorf("not every answer complete and correct while the etcd leader was cut off: %v", bad)
	}
	a.heal(leader)
	took = a.waitSettled(90 * time.Second)
	t.Logf("%s back %v after the heal (%v after the cut)", leader, took.Round(time.Millisecond), time.Since(cut).Round(time.Second))
}
