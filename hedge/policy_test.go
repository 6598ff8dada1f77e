package hedge

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// In a synctest bubble the Policy's ticker runs on the bubble's fake clock, so these tests
// measure delays exactly without waiting for them.

func TestPolicyHedgesAfterTheDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}})
		f.block["m1"] = make(chan struct{})
		var r record[string]
		start := time.Now()
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, f.ask).
			Hedge(context.Background(), NewPolicy(Settings{Max: 300 * time.Millisecond}), r.seen)
		if took := time.Since(start); took != 300*time.Millisecond {
			t.Errorf("answered after %v; the second holder must be asked after the delay, 300ms", took)
		}
		if r.wonBy["LY"] != "m2" || out.Hedged != 1 {
			t.Errorf("LY won by %q after %d hedges; want m2 after one", r.wonBy["LY"], out.Hedged)
		}
	})
}

func TestPolicyHedgesAgainEveryDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}, "m3": {"LY"}})
		f.block["m1"], f.block["m2"] = make(chan struct{}), make(chan struct{})
		start := time.Now()
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2", "m3"}}, f.ask).
			Hedge(context.Background(), NewPolicy(Settings{Max: 100 * time.Millisecond}), nil)
		if took := time.Since(start); took != 200*time.Millisecond || out.Hedged != 2 {
			t.Errorf("answered after %v and %d hedges; want the third holder asked at 200ms", took, out.Hedged)
		}
	})
}

func TestPolicyWithoutDelayNeverHedges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := holders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}})
		f.block["m1"] = make(chan struct{})
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, f.ask).Hedge(ctx, NewPolicy(Settings{}), nil)
		if !slices.Equal(out.Missing, []string{"LY"}) || out.Hedged != 0 || slices.Contains(f.callList(), "m2:LY") {
			t.Errorf("missing %v, hedged %d, calls %v; a zero delay must not hedge", out.Missing, out.Hedged, f.callList())
		}
	})
}

// slowHolder answers after its delay (on the bubble's clock) unless cancelled first.
func slowHolder(delay map[string]time.Duration) Ask[string] {
	return func(ctx context.Context, target string, keys []string) (string, []string) {
		select {
		case <-time.After(delay[target]):
			return target, keys
		case <-ctx.Done():
			return "", nil
		}
	}
}

func TestPolicyLearnsEachTargetsLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPolicy(Settings{Max: time.Second})
		ask := slowHolder(map[string]time.Duration{"m1": 20 * time.Millisecond, "m2": 200 * time.Millisecond})
		if d := p.Delay("m1", ""); d != time.Second {
			t.Fatalf("delay of an unknown target %v, want Max", d)
		}
		for i := range minSamples {
			for _, target := range []string{"m1", "m2"} {
				out := New([]string{"LY"}, map[string][]string{"LY": {target, "m3"}}, ask).Hedge(context.Background(), p, nil)
				if out.HedgeCalls != 0 {
					t.Fatalf("call %d to %s hedged before its latency was known", i, target)
				}
			}
		}
		if d := p.Delay("m1", ""); d != 100*time.Millisecond {
			t.Errorf("m1 answers in 20ms: delay %v, want Min (Max/10 = 100ms)", d)
		}
		if d := p.Delay("m2", ""); d != 200*time.Millisecond {
			t.Errorf("m2 answers in 200ms: delay %v, want its 95th percentile, 200ms", d)
		}
		// Now a call to m1 that hangs is hedged at m1's delay, not at Max.
		ask = slowHolder(map[string]time.Duration{"m1": time.Hour, "m3": time.Millisecond})
		start := time.Now()
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m3"}}, ask).Hedge(context.Background(), p, nil)
		if took := time.Since(start); took != 101*time.Millisecond || out.HedgeCalls != 1 || out.HedgesWon != 1 {
			t.Errorf("a hung m1 answered after %v (hedges %d, won %d); want m3 asked at 100ms, answering at 101ms",
				took, out.HedgeCalls, out.HedgesWon)
		}
	})
}

func TestPolicyBudgetRefusesHedgesAwayFromASlowTargetButNotFromASilentOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A budget of one saved hedge, refilled by nothing in the test's time; m1 has answered
		// 16 calls in 20ms just now, so it is hedged after Min, 100ms.
		p := NewPolicy(Settings{Max: time.Second, Burst: 1, Floor: 1e-9, Ratio: 1e-9})
		for range minSamples {
			p.answered("m1", "", 20*time.Millisecond, true)
		}
		hung := slowHolder(map[string]time.Duration{"m1": time.Hour, "m2": time.Millisecond})
		cands := map[string][]string{"LY": {"m1", "m2"}}
		first := New([]string{"LY"}, cands, hung).Hedge(context.Background(), p, nil)
		if first.HedgeCalls != 1 || first.HedgesWon != 1 || first.HedgesRefused != 0 || len(first.Missing) != 0 {
			t.Fatalf("first gather: %+v; want its one hedge sent at 100ms, and won", first)
		}
		// The budget is spent. The first gather gave up m1's call after 101ms, which m1's window
		// now holds (abandoned): its delay is 101ms. The hedge to m2 is refused at the ticks at
		// 101, 202, …, 808ms of this gather (one call not made, counted once); at 909ms — 1010ms
		// since m1 last answered — m1 is silent and the hedge away from it is free.
		start := time.Now()
		second := New([]string{"LY"}, cands, hung).Hedge(context.Background(), p, nil)
		if took := time.Since(start); second.HedgesRefused != 1 || second.HedgeCalls != 1 || took != 910*time.Millisecond {
			t.Errorf("second gather: %+v after %v; want the hedge refused (once) until it is free at 909ms, answered at 910ms", second, took)
		}
		// A target that fails is not hedged: its key moves on at once, budget or not.
		f := holders(map[string][]string{"m2": {"LY"}})
		third := New([]string{"LY"}, cands, f.ask).Hedge(context.Background(), p, nil)
		if len(third.Missing) != 0 || third.Calls != 2 || third.HedgeCalls != 0 {
			t.Errorf("third gather: %+v; want m1's failure to move LY to m2 without a hedge", third)
		}
	})
}

func TestBudgetAllowsARatioOfCallsAndAFloorPerSecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBudget(0.05, 2, 10)
		spend := func() (n int) {
			for b.hedge() {
				n++
			}
			return n
		}
		if n := spend(); n != 10 {
			t.Fatalf("a fresh budget allowed %d hedges, want its burst, 10", n)
		}
		for range 100 {
			b.call()
		}
		if n := spend(); n != 5 {
			t.Errorf("after 100 calls: %d hedges, want 5 (5%%)", n)
		}
		time.Sleep(2 * time.Second) // the bubble's clock
		if n := spend(); n != 4 {
			t.Errorf("after 2s: %d hedges, want 4 (2 a second)", n)
		}
		time.Sleep(time.Hour)
		if n := spend(); n != 10 {
			t.Errorf("after an hour: %d hedges, want the burst, 10", n)
		}
	})
}

func TestWindowQuantileIsNearestRankOverTheRecentSamples(t *testing.T) {
	var w window
	for i := range minSamples - 1 {
		w.add(time.Duration(i) * time.Millisecond)
	}
	if _, ok := w.quantile(0.95); ok {
		t.Fatalf("a quantile from %d samples; want none below %d", minSamples-1, minSamples)
	}
	w = window{}
	for i := 1; i <= 100; i++ {
		w.add(time.Duration(i) * time.Millisecond)
	}
	if q, _ := w.quantile(0.95); q != 95*time.Millisecond {
		t.Errorf("p95 of 1..100ms = %v, want 95ms", q)
	}
	for range windowSize {
		w.add(time.Second) // the old samples are overwritten
	}
	if q, _ := w.quantile(0.5); q != time.Second || len(w.samples) != windowSize {
		t.Errorf("after %d samples of 1s: p50 %v over %d samples; want 1s over %d", windowSize, q, len(w.samples), windowSize)
	}
}

func TestASlowTargetIsNotSilentOnlyAQuietOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPolicy(Settings{Max: 300 * time.Millisecond})
		for range minSamples {
			p.answered("slow", "", 600*time.Millisecond, true) // a tail of 600ms: it queues under load
			p.answered("fast", "", 5*time.Millisecond, true)
		}
		time.Sleep(time.Second)
		if p.silent([]string{"slow"}, "") {
			t.Errorf("a target whose calls take 600ms is silent after 1s without an answer; want silent only after 1.2s")
		}
		if !p.silent([]string{"fast"}, "") || !p.silent([]string{"never-asked"}, "") {
			t.Errorf("a 5ms target quiet for 1s, or one never heard from, is not silent; want silent after Max (300ms)")
		}
		time.Sleep(201 * time.Millisecond)
		if !p.silent([]string{"slow"}, "") || !p.silent([]string{"slow", "m9"}, "") {
			t.Errorf("the slow target after 1.2s without an answer is not silent")
		}
		p.answered("fast", "", 5*time.Millisecond, false)
		if p.silent([]string{"slow", "fast"}, "") {
			t.Errorf("silent although one of the targets waited on has just answered")
		}
	})
}

func TestPolicyLearnsEachClassApart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPolicy(Settings{Max: time.Second})
		for range minSamples {
			p.answered("d", "page", 5*time.Millisecond, true)
			p.answered("d", "whole", 800*time.Millisecond, true)
		}
		if page, whole := p.Delay("d", "page"), p.Delay("d", "whole"); page != 100*time.Millisecond || whole != 800*time.Millisecond {
			t.Errorf("delays: page %v, whole %v; want Min (100ms) and the whole lists' 800ms", page, whole)
		}
		time.Sleep(1100 * time.Millisecond)
		if !p.silent([]string{"d"}, "page") || p.silent([]string{"d"}, "whole") {
			t.Errorf("1.1s after the last answer: silent for a page %v, for a whole list %v; want true (after Max, 1s), false (after 2 × 800ms)",
				p.silent([]string{"d"}, "page"), p.silent([]string{"d"}, "whole"))
		}
	})
}

// A refused hedge costs time, never the answer: once the call has been pending FreeAfter, the
// next candidate is asked whatever the budget, however alive the slow target looks.
func TestAHedgeIsFreeOnceTheCallWaitedFreeAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPolicy(Settings{Max: time.Second, FreeAfter: 450 * time.Millisecond, Burst: 1, Floor: 1e-9, Ratio: 1e-9})
		for range minSamples {
			p.answered("m1", "", 20*time.Millisecond, true) // hedged after Min, 100ms
		}
		p.budget.hedge()                   // the budget is spent
		defer keepAnswering(p, "m1", "")() // m1 keeps answering other calls: it is slow, not silent
		hung := slowHolder(map[string]time.Duration{"m1": time.Hour, "m2": time.Millisecond})
		start := time.Now()
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, hung).Hedge(context.Background(), p, nil)
		if took := time.Since(start); took != 501*time.Millisecond || out.HedgesRefused != 1 || len(out.Missing) != 0 {
			t.Errorf("answered after %v, %+v; want the hedge to m2 refused at 100–400ms (counted once) and made at 500ms", took, out)
		}
	})
}
