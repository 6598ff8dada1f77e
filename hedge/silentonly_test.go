package hedge

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// With SilentOnly a target that keeps answering is never hedged for being slower than its
// quantile — and no budget is spent or refusal counted — until the call has waited FreeAfter; a
// silent one is hedged after Max, as ever.
func TestSilentOnlyHedgesNoBusyTarget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPolicy(Settings{Max: 100 * time.Millisecond, FreeAfter: 450 * time.Millisecond, SilentOnly: true})
		for range minSamples {
			p.answered("m1", "", 20*time.Millisecond, true) // a quantile of 20ms: Min, 10ms, would hedge
		}
		stop := keepAnswering(p, "m1", "") // busy, not silent
		hung := slowHolder(map[string]time.Duration{"m1": time.Hour, "m2": time.Millisecond})
		start := time.Now()
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, hung).Hedge(context.Background(), p, nil)
		stop()
		if took := time.Since(start); took != 501*time.Millisecond || out.HedgeCalls != 1 || out.HedgesRefused != 0 {
			t.Errorf("answered after %v, %+v; want m2 asked once m1's call waited 450ms (the tick at 500ms), nothing refused", took, out)
		}

		time.Sleep(time.Second) // m1 is silent now
		start = time.Now()
		out = New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, hung).Hedge(context.Background(), p, nil)
		if took := time.Since(start); took != 101*time.Millisecond || out.HedgeCalls != 1 {
			t.Errorf("away from a silent target: answered after %v, %+v; want m2 asked after Max (100ms)", took, out)
		}
	})
}

// With SilentOnly a target is silent only when it answers nothing at all: one answering pages
// is alive, though it never answered a whole list (without it, that class alone would count).
func TestSilentOnlyJudgesSilenceOverEveryClass(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, silentOnly := range []bool{false, true} {
			p := NewPolicy(Settings{Max: 100 * time.Millisecond, SilentOnly: silentOnly})
			p.answered("d", "page", 5*time.Millisecond, true)
			time.Sleep(50 * time.Millisecond)
			if got := p.silent([]string{"d"}, "whole"); got != !silentOnly {
				t.Errorf("SilentOnly %v: a target that answered a page 50ms ago is silent for whole lists: %v", silentOnly, got)
			}
			time.Sleep(time.Second)
			if !p.silent([]string{"d"}, "whole") {
				t.Errorf("SilentOnly %v: a target quiet for 1s is not silent", silentOnly)
			}
		}
	})
}

// A call given up unanswered (its hedge won) counts in its target's window with the time it had
// taken: the slow calls hedges win against are the tail the quantile must see. It is not an
// answer: the target does not stop looking silent for it.
func TestAnAbandonedCallIsASampleNotAnAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPolicy(Settings{Max: 100 * time.Millisecond})
		for range minSamples {
			p.answered("m1", "", 20*time.Millisecond, true)
		}
		time.Sleep(time.Second) // m1 is silent from now on
		hung := slowHolder(map[string]time.Duration{"m1": time.Hour, "m2": time.Millisecond})
		for range minSamples {
			New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, hung).Hedge(context.Background(), p, nil)
		}
		// Each gather hedges m1 at its delay and gives its call up a millisecond later: the
		// delay creeps up by that millisecond a gather (without the samples it would stay 20ms).
		if d := p.Delay("m1", ""); d <= 20*time.Millisecond {
			t.Errorf("delay of a target whose last 16 calls were given up after its delay: %v, want above the 20ms of its answers", d)
		}
		if !p.silent([]string{"m1"}, "") {
			t.Errorf("a target whose calls were all given up is not silent")
		}
	})
}

// A call that ends at its own deadline is no answer (Heard): after one to a paused target timed
// out, the next gather hedges away from it at the first tick, as from any silent target. Counted
// as an answer, the timeout would make the target look alive for another quiet window.
func TestACallThatTimedOutIsNoAnswer(t *testing.T) {
	type reply struct{ heard bool }
	for _, withHeard := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			p := NewPolicy(Settings{Max: 100 * time.Millisecond, FreeAfter: 450 * time.Millisecond, SilentOnly: true})
			for range minSamples {
				p.answered("m1", "", 20*time.Millisecond, true)
			}
			time.Sleep(time.Second) // m1 paused since
			ask := func(ctx context.Context, target string, keys []string) (reply, []string) {
				if target == "m2" {
					time.Sleep(time.Millisecond)
					return reply{heard: true}, keys
				}
				ctx, cancel := context.WithTimeout(ctx, time.Second) // the call's own deadline
				defer cancel()
				<-ctx.Done()
				return reply{}, nil
			}
			gather := func(candidates ...string) *Gather[reply] {
				g := New([]string{"LY"}, map[string][]string{"LY": candidates}, ask)
				if withHeard {
					g.Heard(func(r reply) bool { return r.heard })
				}
				return g
			}
			if out := gather("m1").Hedge(context.Background(), p, nil); !slices.Equal(out.Missing, []string{"LY"}) {
				t.Fatalf("m1 alone, paused: %+v, want LY missing", out)
			}
			start := time.Now()
			gather("m1", "m2").Hedge(context.Background(), p, nil)
			took := time.Since(start)
			if want := 101 * time.Millisecond; withHeard && took != want {
				t.Errorf("right after m1's call timed out: answered after %v, want m2 asked at the first tick (%v)", took, want)
			}
			if want := 201 * time.Millisecond; !withHeard && took != want {
				t.Errorf("without Heard (the timeout counted as m1's answer): answered after %v, want %v", took, want)
			}
		})
	}
}
