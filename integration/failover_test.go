package integration

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
)

// TestFiveMachinesDownToOne kills machines one at a time with SIGKILL, the delegate among them,
// until one is left. After every kill the answers are complete and correct at once (before the
// dead machine's lease expires), the placement invariants return, and with the last machine
// alone — no etcd quorum any more — it still answers completely and registers with the search
// server itself.
func TestFiveMachinesDownToOne(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "6s")
	a := newAllianceArgs(t, "star", map[string][]string{
		"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}, "m4": {"BA", "KE"}, "m5": {"QF"},
	}, []string{"--dead-member-grace", "3s"}, base)
	a.waitSettled(120 * time.Second)
	queries := busyQueries(a.activeData(), 3)
	if err := a.checkAnswers("m5", queries); err != nil {
		t.Fatal(err)
	}

	for _, victim := range []string{"m2", "m1", "m3", "m4"} {
		a.kill(victim)
		asker := a.live()[len(a.live())-1]
		if err := a.checkAnswers(asker, queries); err != nil {
			t.Fatalf("right after kill -9 of %s, asking %s: %v", victim, asker, err)
		}
		if len(a.live()) == 1 {
			break
		}
		took := a.waitSettled(90 * time.Second)
		t.Logf("kill -9 %s: placement settled after %v with %v", victim, took, a.live())
		if err := a.checkAnswers(asker, queries); err != nil {
			t.Fatalf("after settling without %s: %v", victim, err)
		}
		// The dead etcd member must be gone before the next kill, or two dead voters of a
		// shrinking cluster would take its quorum.
		a.waitMembers(60 * time.Second)
	}
	// m5 alone, without quorum: the search server must get its answers through m5.
	took := framework.Eventually(t, 60*time.Second, "the last machine answers through the search server", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})
	t.Logf("last machine registered and answering %v after the last kill", took)
}

// TestRejoinReplacesOldVersionAndPauseRecovers restarts a killed machine with a changed data
// file (its seller's old copies must be replaced everywhere), then pauses a machine past its
// lease and resumes it.
func TestRejoinReplacesOldVersionAndPauseRecovers(t *testing.T) {
	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH", "AF"}})
	a.waitSettled(90 * time.Second)
	queries := busyQueries(a.activeData(), 3)

	t.Run("rejoin with a new version", func(t *testing.T) {
		a.kill("m2")
		a.waitSettled(60 * time.Second)
		// Every UA flight costs one more euro in the file m2 comes back with.
		ua := a.data["UA"]
		for i := range ua {
			ua[i].Price += 100
		}
		var buf bytes.Buffer
		if err := flight.WriteCSV(&buf, ua); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(a.dir, "data", "UA.csv"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		a.restart("m2")
		a.waitSettled(90 * time.Second)
		framework.Eventually(t, 30*time.Second, "answers show the new UA prices", func() error {
			return a.checkAnswers("m1", queries)
		})
	})

	t.Run("paused past its lease, then resumed", func(t *testing.T) {
		a.pause("m3")
		// While m3 is stopped its copies are served by their other holders.
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatalf("while m3 is paused: %v", err)
		}
		took := a.waitSettled(60 * time.Second)
		t.Logf("placement settled %v after pausing m3", took)
		a.resume("m3")
		took = a.waitSettled(90 * time.Second)
		t.Logf("m3 back %v after resuming", took)
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatal(err)
		}
	})
}

// waitMembers waits until the etcd cluster's members are exactly the live machines.
func (a *testAlliance) waitMembers(timeout time.Duration) {
	a.t.Helper()
	framework.Eventually(a.t, timeout, "etcd members are the live machines", func() error {
		members, err := a.etcdMembers()
		if err != nil {
			return err
		}
		var names []string
		for _, m := range members {
			names = append(names, m.Name)
		}
		live := a.live()
		if len(names) != len(live) {
			return fmt.Errorf("etcd members %v, live machines %v", names, live)
		}
		return nil
	})
}
