package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// checkAnswers asks machine for every query and compares with the brute-force reference; the
// answer must be complete.
func (a *testAlliance) checkAnswers(machine string, queries []query) error {
	for _, q := range queries {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := a.getTrips(ctx, machine, q)
		cancel()
		if err != nil {
			return fmt.Errorf("%v: %w", q, err)
		}
		if !resp.Complete {
			return fmt.Errorf("%v: incomplete, missing %v", q, resp.MissingSellers)
		}
		want := referenceTrips(a.activeData(), q, 30*time.Minute)
		if got := rendered(resp); !slices.Equal(got, want) {
			return fmt.Errorf("%v: got %d trips %v…, want %d trips %v…", q, len(got), head(got), len(want), head(want))
		}
	}
	return nil
}

func head(s []string) []string { return s[:min(3, len(s))] }

// TestAllianceLifecycle runs one alliance through the life the issue describes: it forms from
// --peers, answers like the reference, loses a machine to SIGKILL and keeps answering, loses its
// delegate, gets a machine back with the same command line, gets a new machine with --join, and
// loses a machine in the middle of a round. It runs secure, as make run does.
func TestAllianceLifecycle(t *testing.T) { testAllianceLifecycle(t, allianceOpts{}) }

// TestAllianceLifecycleOpen is the same life in the open mode (plain HTTP, no token).
func TestAllianceLifecycleOpen(t *testing.T) { testAllianceLifecycle(t, allianceOpts{open: true}) }

func testAllianceLifecycle(t *testing.T, opts allianceOpts) {
	a := startAlliance(t, "star", map[string][]string{
		"m1": {"LY", "UA"},
		"m2": {"LH"},
		"m3": {"AF", "BA"},
	}, opts)
	queries := busyQueries(a.activeData(), 4)
	queries = append(queries, query{src: queries[0].src, dst: queries[0].dst, date: testDate, sellers: []string{"LY", "LH"}})

	t.Run("forms from peers", func(t *testing.T) {
		took := a.waitSettled(90 * time.Second)
		t.Logf("settled %v after start", took)
		if d := a.delegate(); d != "m1" {
			t.Fatalf("delegate %s, want m1 (the smallest name)", d)
		}
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("non-delegate killed", func(t *testing.T) {
		a.kill("m2")
		// Before m2's lease expires the delegate must already answer completely, asking the
		// other holder of m2's sellers.
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatalf("right after kill -9: %v", err)
		}
		took := a.waitSettled(60 * time.Second)
		t.Logf("placement settled %v after kill -9 of m2", took)
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("killed machine restarted with the same command line", func(t *testing.T) {
		a.restart("m2")
		took := a.waitSettled(90 * time.Second)
		t.Logf("m2 back and settled after %v", took)
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("delegate killed", func(t *testing.T) {
		a.kill("m1")
		framework.Eventually(t, 30*time.Second, "m2 becomes delegate", func() error {
			st, err := a.status("m2")
			if err != nil {
				return err
			}
			if st.Delegate != "m2" {
				return fmt.Errorf("m2 says the delegate is %q", st.Delegate)
			}
			return nil
		})
		if err := a.checkAnswers("m2", queries); err != nil {
			t.Fatal(err)
		}
		a.waitSettled(60 * time.Second)
		a.restart("m1")
		a.waitSettled(90 * time.Second)
		if d := a.delegate(); d != "m1" {
			t.Fatalf("delegate %s after m1 came back, want m1", d)
		}
	})

	t.Run("fourth machine joins with --join", func(t *testing.T) {
		a.add("m4", "KL")
		a.waitSettled(90 * time.Second)
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("machine dies in the middle of a round", func(t *testing.T) {
		// Join a machine and kill m3 while it is inside the join's round. A round can be over
		// in milliseconds, so if m3 was not caught inside one, another machine joins and the
		// test tries again.
		caught := false
		for i, joiner := range []string{"m5", "m6", "m7"} {
			before, err := a.status("m3")
			if err != nil {
				t.Fatal(err)
			}
			a.add(joiner, spareSellers[1+i])
			deadline := time.Now().Add(60 * time.Second)
			for time.Now().Before(deadline) {
				st, err := a.status("m3")
				if err == nil && st.Round.Phase != "idle" && st.Round.Phase != "" && st.Round.ID > before.Round.ID {
					caught = true
					break
				}
				if err == nil && st.Round.ID > before.Round.ID && st.Round.Phase == "idle" {
					break // the round went by between two looks
				}
				time.Sleep(5 * time.Millisecond)
			}
			if caught {
				t.Logf("killing m3 in phase of the round of %s's join", joiner)
				break
			}
			a.waitSettled(90 * time.Second)
		}
		if !caught {
			t.Fatal("never caught m3 inside a join round in three joins")
		}
		a.kill("m3")
		a.waitSettled(90 * time.Second)
		if err := a.checkAnswers("m1", queries); err != nil {
			t.Fatal(err)
		}
	})
}
