package hedge

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// The search server's use: one key (the alliance), its targets the delegate and then its
// alternates, and an answer covers the key only when it is complete. These tests follow that use.

// delegateReply is what a target of an alliance answered.
type delegateReply struct {
	missing []string // the sellers the answer lacks; none means complete
	err     error
}

// delegates is a fake alliance whose targets answer from replies.
func delegates(replies map[string]delegateReply) *fakeTargets[delegateReply] {
	return newFake(func(target string, keys []string) (delegateReply, []string) {
		r := replies[target]
		if r.err != nil || len(r.missing) > 0 {
			return r, nil
		}
		return r, keys
	})
}

var star = map[string][]string{"star": {"d", "a1", "a2"}}

func TestAllianceCompleteAnswerWins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := delegates(map[string]delegateReply{"d": {}, "a1": {}, "a2": {}})
		var r record[delegateReply]
		out := New([]string{"star"}, star, f.ask).Run(context.Background(), noTicks, r.seen)
		if calls := f.callList(); !slices.Equal(calls, []string{"d:star"}) || r.wonBy["star"] != "d" || len(out.Missing) != 0 {
			t.Errorf("calls %v, won by %v, missing %v; want the delegate alone, complete", calls, r.wonBy, out.Missing)
		}
	})
}

func TestAllianceIncompleteAnswerAsksTheNextAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := delegates(map[string]delegateReply{"d": {missing: []string{"UA"}}, "a1": {}, "a2": {}})
		var r record[delegateReply]
		out := New([]string{"star"}, star, f.ask).Run(context.Background(), noTicks, r.seen)
		if calls := f.callList(); !slices.Equal(calls, []string{"d:star", "a1:star"}) {
			t.Errorf("calls %v; want the delegate, then its first alternate without a tick, and no more", calls)
		}
		if r.wonBy["star"] != "a1" || len(r.answers) != 2 || len(out.Missing) != 0 || out.Hedged != 0 {
			t.Errorf("won by %v in %d answers, missing %v, hedged %d", r.wonBy, len(r.answers), out.Missing, out.Hedged)
		}
	})
}

func TestAllianceHedgeTickAsksTheNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := delegates(map[string]delegateReply{"d": {}, "a1": {}, "a2": {}})
		f.block["d"] = make(chan struct{}) // paused delegate
		ticks := make(chan time.Time)
		done := runAsync(context.Background(), New([]string{"star"}, star, f.ask), ticks)

		synctest.Wait()
		if calls := f.callList(); !slices.Equal(calls, []string{"d:star"}) {
			t.Fatalf("calls %v before any tick; want the delegate alone", calls)
		}
		ticks <- time.Now()
		got := <-done
		if got.rec.wonBy["star"] != "a1" || got.out.Hedged != 1 || len(got.out.Missing) != 0 {
			t.Errorf("won by %v, hedged %d, missing %v; want a1 after one hedge", got.rec.wonBy, got.out.Hedged, got.out.Missing)
		}
		if calls := f.callList(); slices.Contains(calls, "a2:star") {
			t.Errorf("calls %v: the second alternate was asked though the first answered complete", calls)
		}
	})
}

func TestAllianceWithoutACompleteAnswerLeavesTheChoiceToTheCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := delegates(map[string]delegateReply{
			"d":  {missing: []string{"LY", "UA"}},
			"a1": {missing: []string{"UA"}},
			"a2": {err: errors.New("a2: not ready")},
		})
		var r record[delegateReply]
		out := New([]string{"star"}, star, f.ask).Run(context.Background(), noTicks, r.seen)
		if !slices.Equal(out.Missing, []string{"star"}) {
			t.Fatalf("missing %v; no answer was complete", out.Missing)
		}
		if targets := seenTargets(r); !slices.Equal(targets, []string{"d", "a1", "a2"}) {
			t.Fatalf("answers seen from %v; want every target's, in order", targets)
		}
		best := r.answers[0]
		for _, a := range r.answers[1:] {
			if a.Value.err == nil && len(a.Value.missing) < len(best.Value.missing) {
				best = a
			}
		}
		if best.Target != "a1" || len(best.Won) != 0 {
			t.Errorf("the caller's best is %+v; want a1's, which misses one seller and won nothing", best)
		}
	})
}

func TestAllianceContextEndMisses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := delegates(map[string]delegateReply{"d": {}, "a1": {}, "a2": {}})
		f.block["d"] = make(chan struct{})
		ctx, cancel := context.WithCancel(context.Background())
		done := runAsync(ctx, New([]string{"star"}, star, f.ask), noTicks)
		synctest.Wait()
		cancel()
		got := <-done
		if !slices.Equal(got.out.Missing, []string{"star"}) || len(got.rec.answers) != 0 {
			t.Errorf("missing %v, %d answers seen; want star missing and nothing seen", got.out.Missing, len(got.rec.answers))
		}
		if calls := f.callList(); !slices.Equal(calls, []string{"d:star"}) {
			t.Errorf("calls %v; nothing but the delegate may be asked without a tick", calls)
		}
	})
}
