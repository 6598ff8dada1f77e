package alliance

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

// fakeHolders answers asks from a table, recording each call. A machine listed in block waits
// until its channel is closed (or the call is cancelled) before answering.
type fakeHolders struct {
	has   map[string][]string // machine → sellers it covers
	block map[string]chan struct{}

	mu    sync.Mutex
	calls []string // "machine:SELLER,SELLER" in call order
	asked chan string
}

func newFakeHolders(has map[string][]string) *fakeHolders {
	return &fakeHolders{has: has, block: map[string]chan struct{}{}, asked: make(chan string, 100)}
}

func (f *fakeHolders) ask(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string) {
	sorted := slices.Sorted(slices.Values(sellers))
	call := machine + ":" + strings.Join(sorted, ",")
	f.mu.Lock()
	f.calls = append(f.calls, call)
	f.mu.Unlock()
	f.asked <- call
	if ch, ok := f.block[machine]; ok {
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, nil, nil
		}
	}
	for _, s := range sellers {
		if slices.Contains(f.has[machine], s) {
			covered = append(covered, s)
			src = append(src, flight.Flight{Seller: s, Number: s + "1", Src: machine})
			dst = append(dst, flight.Flight{Seller: s, Number: s + "2", Dst: machine})
		}
	}
	return src, dst, covered
}

func (f *fakeHolders) callList() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// waitAsked waits, up to a deadline, until call has been made.
func (f *fakeHolders) waitAsked(t *testing.T, call string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case got := <-f.asked:
			if got == call {
				return
			}
		case <-deadline:
			t.Fatalf("%s was never asked; calls: %v", call, f.callList())
		}
	}
}

// answeredBy says which machine each seller's flights came from.
func answeredBy(g gathered) map[string]string {
	out := map[string]string{}
	for _, f := range g.fromSrc {
		out[f.Seller] = f.Src
	}
	return out
}

// noHedge is a hedge channel that never ticks.
var noHedge <-chan time.Time

func TestGatherAsksOneHolderPerSellerGroupedByMachine(t *testing.T) {
	h := newFakeHolders(map[string][]string{"m1": {"LY", "UA"}, "m2": {"LH"}, "m3": {"LY", "UA", "LH"}})
	want := []string{"LY", "UA", "LH"}
	cands := map[string][]string{"LY": {"m1", "m3"}, "UA": {"m1", "m3"}, "LH": {"m2", "m3"}}
	got := newGather(want, cands, h.ask).run(context.Background(), noHedge)

	calls := h.callList()
	slices.Sort(calls)
	if !slices.Equal(calls, []string{"m1:LY,UA", "m2:LH"}) {
		t.Errorf("calls %v, want one call to m1 for LY and UA and one to m2 for LH", calls)
	}
	if by := answeredBy(got); by["LY"] != "m1" || by["UA"] != "m1" || by["LH"] != "m2" || len(got.toDst) != 3 {
		t.Errorf("answers from %v, %d arrivals", by, len(got.toDst))
	}
	if len(got.missing) != 0 || got.missing == nil || got.hedged != 0 {
		t.Errorf("missing %#v, hedged %d; want an empty list and no hedge", got.missing, got.hedged)
	}
}

func TestGatherAsksTheNextHolderAtOnceWhenOneDoesNotCover(t *testing.T) {
	// m1 covers LY but not UA (it failed for it, or gave it away): UA goes to m2 without waiting
	// for a hedge tick, which never comes here.
	h := newFakeHolders(map[string][]string{"m1": {"LY"}, "m2": {"UA"}})
	cands := map[string][]string{"LY": {"m1", "m2"}, "UA": {"m1", "m2"}}
	got := newGather([]string{"LY", "UA"}, cands, h.ask).run(context.Background(), noHedge)

	if calls := h.callList(); !slices.Equal(calls, []string{"m1:LY,UA", "m2:UA"}) {
		t.Errorf("calls %v, want m1 for both, then m2 for UA", calls)
	}
	if by := answeredBy(got); by["LY"] != "m1" || by["UA"] != "m2" || len(got.missing) != 0 {
		t.Errorf("answers from %v, missing %v", by, got.missing)
	}
}

func TestGatherHedgesASlowHolderAndTakesTheFirstAnswer(t *testing.T) {
	h := newFakeHolders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}})
	h.block["m1"] = make(chan struct{}) // paused: answers only when the call is cancelled
	cands := map[string][]string{"LY": {"m1", "m2"}}
	hedge := make(chan time.Time)
	done := make(chan gathered, 1)
	go func() { done <- newGather([]string{"LY"}, cands, h.ask).run(context.Background(), hedge) }()

	h.waitAsked(t, "m1:LY")
	hedge <- time.Now()
	got := <-done
	if by := answeredBy(got); by["LY"] != "m2" || got.hedged != 1 || len(got.missing) != 0 {
		t.Errorf("LY answered by %q, hedged %d, missing %v; want m2 after one hedge", by["LY"], got.hedged, got.missing)
	}
	if len(got.fromSrc) != 1 {
		t.Errorf("%d departures; the first answer alone must count", len(got.fromSrc))
	}
}

func TestGatherHedgesAfterTheDelay(t *testing.T) {
	h := newFakeHolders(map[string][]string{"m1": {"LY"}, "m2": {"LY"}})
	h.block["m1"] = make(chan struct{})
	cands := map[string][]string{"LY": {"m1", "m2"}}
	const delay = 50 * time.Millisecond
	start := time.Now()
	got := gatherFlights(context.Background(), []string{"LY"}, cands, delay, h.ask)
	if took := time.Since(start); took < delay {
		t.Errorf("answered after %v: the second holder was asked before the hedge delay %v", took, delay)
	}
	if answeredBy(got)["LY"] != "m2" || got.hedged != 1 {
		t.Errorf("LY answered by %q after %d hedges; want m2 after one", answeredBy(got)["LY"], got.hedged)
	}
}

func TestGatherWaitsForTheLastHolderInFlight(t *testing.T) {
	// LY has one holder, slow; hedge ticks find no one else to ask. LY is not missing: its call
	// may still answer, and does.
	h := newFakeHolders(map[string][]string{"m1": {"LY"}})
	release := make(chan struct{})
	h.block["m1"] = release
	hedge := make(chan time.Time)
	done := make(chan gathered, 1)
	go func() {
		done <- newGather([]string{"LY"}, map[string][]string{"LY": {"m1"}}, h.ask).run(context.Background(), hedge)
	}()
	h.waitAsked(t, "m1:LY")
	hedge <- time.Now() // received only by a gather still waiting
	hedge <- time.Now()
	close(release)
	got := <-done
	if answeredBy(got)["LY"] != "m1" || len(got.missing) != 0 || got.hedged != 0 {
		t.Errorf("LY answered by %q, missing %v, hedged %d; want m1, nothing missing", answeredBy(got)["LY"], got.missing, got.hedged)
	}
}

func TestGatherMissesOnlySellersNoHolderCovers(t *testing.T) {
	h := newFakeHolders(map[string][]string{"m1": {"LY"}, "m2": {}})
	cands := map[string][]string{"LY": {"m1"}, "UA": {"m1", "m2"}, "LH": {}}
	got := newGather([]string{"UA", "LY", "LH"}, cands, h.ask).run(context.Background(), noHedge)
	if !slices.Equal(got.missing, []string{"LH", "UA"}) {
		t.Errorf("missing %v, want [LH UA] (sorted): LH has no holder, UA's holders both failed", got.missing)
	}
	if answeredBy(got)["LY"] != "m1" {
		t.Errorf("LY answered by %q, want m1", answeredBy(got)["LY"])
	}
}

func TestGatherCancelledMissesWhatIsPending(t *testing.T) {
	// m2 is asked only after m1's answer, which covered LY, has been taken.
	h := newFakeHolders(map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}})
	h.block["m2"] = make(chan struct{})
	cands := map[string][]string{"LY": {"m1"}, "UA": {"m1", "m2"}, "LH": {"m1", "m2"}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan gathered, 1)
	go func() { done <- newGather([]string{"UA", "LY", "LH"}, cands, h.ask).run(ctx, noHedge) }()
	h.waitAsked(t, "m2:LH,UA")
	cancel()
	got := <-done
	if !slices.Equal(got.missing, []string{"LH", "UA"}) {
		t.Errorf("missing %v after cancel, want [LH UA]", got.missing)
	}
}
