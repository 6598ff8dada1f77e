package hedge

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// Every scenario runs in a synctest bubble: synctest.Wait lets the calls in flight reach their
// fake holder, and the bubble fails the test if any goroutine is left blocked at the end (a call
// that could not hand its answer to a gather that had returned, say).

// runAsync runs g in a goroutine, recording what seen is given; the outcome and the record are
// read from done once Run has returned.
func runAsync[A any](ctx context.Context, g *Gather[A], ticks <-chan time.Time) <-chan ran[A] {
	done := make(chan ran[A], 1)
	go func() {
		var r record[A]
		out := g.Run(ctx, ticks, r.seen)
		done <- ran[A]{out, r}
	}()
	return done
}

type ran[A any] struct {
	out Outcome
	rec record[A]
}

func TestGatherAsksOneCandidatePerKeyGroupedByTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(map[string][]string{"m1": {"LY", "UA"}, "m2": {"LH"}, "m3": {"LY", "UA", "LH"}})
		cands := map[string][]string{"LY": {"m1", "m3"}, "UA": {"m1", "m3"}, "LH": {"m2", "m3"}}
		var r record[string]
		out := New([]string{"LY", "UA", "LH"}, cands, f.ask).Run(context.Background(), noTicks, r.seen)

		if calls := f.callList(); !slices.Equal(slices.Sorted(slices.Values(calls)), []string{"m1:LY,UA", "m2:LH"}) {
			t.Errorf("calls %v, want one call to m1 for LY and UA and one to m2 for LH", calls)
		}
		if r.wonBy["LY"] != "m1" || r.wonBy["UA"] != "m1" || r.wonBy["LH"] != "m2" || len(r.answers) != 2 {
			t.Errorf("won by %v in %d answers", r.wonBy, len(r.answers))
		}
		if len(out.Missing) != 0 || out.Missing == nil || out.Hedged != 0 {
			t.Errorf("missing %#v, hedged %d; want an empty list and no hedge", out.Missing, out.Hedged)
		}
	})
}

func TestGatherAsksTheNextCandidateAtOnceWhenOneDoesNotCover(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// m1 covers LY but not UA (it failed for it, or gave it away): UA goes to m2 without
		// waiting for a hedge tick, which never comes here.
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"UA"}})
		cands := map[string][]string{"LY": {"m1", "m2"}, "UA": {"m1", "m2"}}
		var r record[string]
		out := New([]string{"LY", "UA"}, cands, f.ask).Run(context.Background(), noTicks, r.seen)

		if calls := f.callList(); !slices.Equal(calls, []string{"m1:LY,UA", "m2:UA"}) {
			t.Errorf("calls %v, want m1 for both, then m2 for UA", calls)
		}
		if r.wonBy["LY"] != "m1" || r.wonBy["UA"] != "m2" || len(out.Missing) != 0 {
			t.Errorf("won by %v, missing %v", r.wonBy, out.Missing)
		}
		if a := r.answers[0]; !slices.Equal(a.Keys, []string{"LY", "UA"}) || !slices.Equal(a.Covered, []string{"LY"}) || !slices.Equal(a.Won, []string{"LY"}) {
			t.Errorf("m1's answer seen as %+v", a)
		}
	})
}

func TestGatherHedgesASlowTargetAndTheFirstAnswerWins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// LY's first holder is paused; a tick asks its second, which answers first. The paused
		// one then answers too, while UA keeps the gather open: it is seen, but wins nothing.
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}, "m3": {"UA"}})
		releaseM1, releaseM3 := make(chan struct{}), make(chan struct{})
		f.block["m1"], f.block["m3"] = releaseM1, releaseM3
		cands := map[string][]string{"LY": {"m1", "m2"}, "UA": {"m3"}}
		ticks := make(chan time.Time)
		done := runAsync(context.Background(), New([]string{"LY", "UA"}, cands, f.ask), ticks)

		synctest.Wait()
		ticks <- time.Now()
		synctest.Wait() // m2 has answered for LY
		close(releaseM1)
		synctest.Wait() // so has m1
		close(releaseM3)
		got := <-done

		if got.rec.wonBy["LY"] != "m2" || got.rec.wonBy["UA"] != "m3" || got.out.Hedged != 1 || len(got.out.Missing) != 0 {
			t.Errorf("won by %v, hedged %d, missing %v; want LY from m2 after one hedge", got.rec.wonBy, got.out.Hedged, got.out.Missing)
		}
		if targets := seenTargets(got.rec); !slices.Equal(targets, []string{"m2", "m1", "m3"}) {
			t.Errorf("answers seen from %v, want m2, m1, m3", targets)
		}
		if late := got.rec.answers[1]; !slices.Equal(late.Covered, []string{"LY"}) || len(late.Won) != 0 {
			t.Errorf("the late answer for LY was seen as %+v; it covers LY but must win nothing", late)
		}
	})
}

func TestGatherCancelsTheCallsThatLost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}})
		f.block["m1"] = make(chan struct{}) // paused: answers only when its call is cancelled
		ticks := make(chan time.Time)
		done := runAsync(context.Background(), New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, f.ask), ticks)

		synctest.Wait()
		ticks <- time.Now()
		got := <-done
		synctest.Wait()
		if got.rec.wonBy["LY"] != "m2" || len(got.rec.answers) != 1 {
			t.Errorf("won by %v in %d answers; want m2's answer alone", got.rec.wonBy, len(got.rec.answers))
		}
		if c := f.cancelledList(); !slices.Equal(c, []string{"m1:LY"}) {
			t.Errorf("cancelled %v; the paused call to m1 must be cancelled when the gather returns", c)
		}
	})
}

func TestGatherWaitsForTheLastCandidateInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// LY has one holder, slow; hedge ticks find no one else to ask. LY is not missing: its
		// call may still answer, and does.
		f := holders(map[string][]string{"m1": {"LY"}})
		release := make(chan struct{})
		f.block["m1"] = release
		ticks := make(chan time.Time)
		done := runAsync(context.Background(), New([]string{"LY"}, map[string][]string{"LY": {"m1"}}, f.ask), ticks)

		ticks <- time.Now() // received only by a gather still waiting
		ticks <- time.Now()
		close(release)
		got := <-done
		if got.rec.wonBy["LY"] != "m1" || len(got.out.Missing) != 0 || got.out.Hedged != 0 {
			t.Errorf("won by %v, missing %v, hedged %d; want m1, nothing missing", got.rec.wonBy, got.out.Missing, got.out.Hedged)
		}
	})
}

func TestGatherMissesOnlyKeysNoCandidateCovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {}})
		cands := map[string][]string{"LY": {"m1"}, "UA": {"m1", "m2"}, "LH": {}}
		var r record[string]
		out := New([]string{"UA", "LY", "LH"}, cands, f.ask).Run(context.Background(), noTicks, r.seen)
		if !slices.Equal(out.Missing, []string{"LH", "UA"}) {
			t.Errorf("missing %v, want [LH UA] (sorted): LH has no candidate, UA's both failed", out.Missing)
		}
		if r.wonBy["LY"] != "m1" {
			t.Errorf("LY won by %q, want m1", r.wonBy["LY"])
		}
	})
}

func TestGatherCancelledMissesWhatIsPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// m2 is asked only after m1's answer, which covered LY, has been taken.
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}})
		f.block["m2"] = make(chan struct{})
		cands := map[string][]string{"LY": {"m1"}, "UA": {"m1", "m2"}, "LH": {"m1", "m2"}}
		ctx, cancel := context.WithCancel(context.Background())
		done := runAsync(ctx, New([]string{"UA", "LY", "LH"}, cands, f.ask), noTicks)

		synctest.Wait()
		if calls := f.callList(); !slices.Equal(calls, []string{"m1:LH,LY,UA", "m2:LH,UA"}) {
			t.Fatalf("calls %v before the cancel", calls)
		}
		cancel()
		got := <-done
		if !slices.Equal(got.out.Missing, []string{"LH", "UA"}) || got.rec.wonBy["LY"] != "m1" {
			t.Errorf("missing %v after cancel, won by %v; want [LH UA] missing and LY from m1", got.out.Missing, got.rec.wonBy)
		}
	})
}

func TestGatherOfNoKeysAsksNobody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(nil)
		out := New(nil, nil, f.ask).Run(context.Background(), noTicks, nil)
		if out.Missing == nil || len(out.Missing) != 0 || len(f.callList()) != 0 {
			t.Errorf("missing %#v, calls %v; want an empty list and no call", out.Missing, f.callList())
		}
	})
}

func seenTargets[A any](r record[A]) []string {
	var out []string
	for _, a := range r.answers {
		out = append(out, a.Target)
	}
	return out
}

func TestGatherPassesOverTheCandidatesSkipNames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// m1 does not have LY; m2 is skipped, so LY goes to m3. UA's only other candidate is
		// skipped: it is missing without another call.
		f := holders(map[string][]string{"m1": {"UA2"}, "m2": {"LY", "UA"}, "m3": {"LY"}})
		cands := map[string][]string{"LY": {"m1", "m2", "m3"}, "UA": {"m1", "m2"}}
		var r record[string]
		var asked []string // what skip was asked about, in order
		out := New([]string{"LY", "UA"}, cands, f.ask).Skip(func(target string) bool {
			asked = append(asked, target)
			return target == "m2"
		}).Run(context.Background(), noTicks, r.seen)

		if calls := f.callList(); !slices.Equal(calls, []string{"m1:LY,UA", "m3:LY"}) {
			t.Errorf("calls %v, want m1 for both, then m3 for LY", calls)
		}
		if r.wonBy["LY"] != "m3" || !slices.Equal(out.Missing, []string{"UA"}) || out.Calls != 2 {
			t.Errorf("won by %v, missing %v, %d calls; want LY from m3, UA missing, 2 calls", r.wonBy, out.Missing, out.Calls)
		}
		if !slices.Equal(asked, []string{"m1", "m1", "m2", "m3", "m2"}) {
			t.Errorf("skip asked about %v, want each candidate as its turn came", asked)
		}
	})
}
