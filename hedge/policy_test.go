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
			Hedge(context.Background(), Policy{Delay: 300 * time.Millisecond}, r.seen)
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
			Hedge(context.Background(), Policy{Delay: 100 * time.Millisecond}, nil)
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
		out := New([]string{"LY"}, map[string][]string{"LY": {"m1", "m2"}}, f.ask).Hedge(ctx, Policy{}, nil)
		if !slices.Equal(out.Missing, []string{"LY"}) || out.Hedged != 0 || slices.Contains(f.callList(), "m2:LY") {
			t.Errorf("missing %v, hedged %d, calls %v; a zero delay must not hedge", out.Missing, out.Hedged, f.callList())
		}
	})
}
