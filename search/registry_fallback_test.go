package search

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"
)

// A machine that registers on a view of its alliance that lags (it saw nobody before it) replaces
// the real delegate's registration, and may die right after. Until the real delegate refreshes,
// the searches must still reach it: the replaced line stays, asked last, until it would have
// gone stale.
func TestReplacedDelegateStaysAFallbackUntilItsRegistrationWouldHaveLapsed(t *testing.T) {
	const (
		m1 = "https://10.0.0.1:8101/Services/SellerService"
		m2 = "https://10.0.0.2:8101/Services/SellerService"
		m3 = "https://10.0.0.3:8101/Services/SellerService"
		m4 = "https://10.0.0.4:8101/Services/SellerService"
	)
	clk := &fakeClock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	r := NewRegistry(30*time.Second, clk.now)
	targets := func() []string {
		t.Helper()
		regs := r.All()
		if len(regs) != 1 {
			t.Fatalf("registrations = %+v, want one", regs)
		}
		return regs[0].targets()
	}

	r.Register("star", m1, m2, m3)
	if got := r.All()[0].Previous; got != nil {
		t.Fatalf("a first registration has fallbacks %+v", got)
	}
	clk.advance(10 * time.Second)
	hijack, _ := r.Register("star", m2) // m2 on a lagging view: no alternates
	want := []Fallback{{m1, clk.now().Add(20 * time.Second)}, {m3, clk.now().Add(20 * time.Second)}}
	if !slices.Equal(hijack.Previous, want) {
		t.Fatalf("fallbacks after m2 replaced m1 = %+v, want %+v (m2 itself is the delegate now)", hijack.Previous, want)
	}
	if got := targets(); !slices.Equal(got, []string{m2, m1, m3}) {
		t.Fatalf("targets = %v, want the new delegate, then the replaced line", got)
	}

	// The new delegate refreshing keeps the fallbacks: it may be the one on a lagging view.
	clk.advance(5 * time.Second)
	r.Register("star", m2)
	if got := targets(); !slices.Equal(got, []string{m2, m1, m3}) {
		t.Fatalf("targets after m2's refresh = %v, want the fallbacks kept", got)
	}
	// A third registration before they lapse carries them on, its own predecessor first, and
	// never names a target twice.
	clk.advance(5 * time.Second)
	r.Register("star", m4, m3)
	if got := targets(); !slices.Equal(got, []string{m4, m3, m2, m1}) {
		t.Fatalf("targets after m4 replaced m2 = %v, want [m4 m3 m2 m1]", got)
	}
	// m1's line lapses 30 s after m1 last registered; m2's 30 s after its refresh.
	clk.advance(10 * time.Second)
	if got := targets(); !slices.Equal(got, []string{m4, m3, m2}) {
		t.Fatalf("targets 30 s after m1's registration = %v, want m1 dropped", got)
	}
	clk.advance(15 * time.Second)
	reg := r.All()[0]
	if got := reg.targets(); !slices.Equal(got, []string{m4, m3}) || reg.Previous != nil {
		t.Fatalf("targets 30 s after m2's refresh = %v (fallbacks %+v), want only m4's line", got, reg.Previous)
	}
	// A stale registration leaves no fallback: its delegate had gone silent.
	clk.advance(time.Minute)
	r.Register("star", m1)
	if got := targets(); !slices.Equal(got, []string{m1}) {
		t.Fatalf("targets after replacing a stale registration = %v, want [m1]", got)
	}
}

func TestFallbacksAreBounded(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	r := NewRegistry(30*time.Second, clk.now)
	for i := range 3 * maxFallbacks {
		uri := "https://10.0.1." + string(rune('a'+i)) + ":8101/Services/SellerService"
		r.Register("star", uri, uri+"/alt")
	}
	if got := len(r.All()[0].Previous); got != maxFallbacks {
		t.Fatalf("%d fallbacks after %d replacements, want at most %d", got, 3*maxFallbacks, maxFallbacks)
	}
}

// Over HTTP: the real delegate registers with its alternate; a machine replaces it with no
// alternates and goes silent. The search answers complete, from the replaced delegate, after the
// hedge delay rather than the delegate timeout; the listing shows the fallbacks.
func TestSearchAsksTheReplacedDelegateWhenItsReplacementIsSilent(t *testing.T) {
	real := startDelegate(t, answer(starTrips))
	alt := startDelegate(t, answer(starTrips))
	silent := startDelegate(t, stuckUntilCancelled)
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: 50 * time.Millisecond})
	ts.registerWithAlternates(t, "star", real.URI, alt.URI)
	ts.registerWithAlternates(t, "star", silent.URI)

	done := make(chan Answer, 1)
	go func() { done <- ts.search(t, query) }()
	select {
	case a := <-done:
		if st, _ := status(a, "star"); !a.Complete || !st.Complete || len(a.Trips) != len(starTrips.Trips) {
			t.Fatalf("answer with a silent replacement: %+v", a)
		}
	case <-time.After(30 * time.Second): // the delegate timeout is a minute
		t.Fatal("the replaced delegate was not asked while its replacement stayed silent")
	}
	if silent.calls.Load() != 1 || real.calls.Load() != 1 || alt.calls.Load() != 0 {
		t.Errorf("calls: silent %d, replaced delegate %d, its alternate %d; want 1, 1, 0",
			silent.calls.Load(), real.calls.Load(), alt.calls.Load())
	}
	var list struct{ Registrations []Registration }
	if code, b := do(t, http.MethodGet, ts.URL+"/Services/FlightsSearchReg/", ""); code != http.StatusOK || json.Unmarshal([]byte(b), &list) != nil {
		t.Fatalf("listing: %d %s", code, b)
	}
	if regs := list.Registrations; len(regs) != 1 || !slices.Equal(regs[0].targets(), []string{silent.URI, real.URI, alt.URI}) {
		t.Fatalf("listed registrations %+v: want the silent delegate with the replaced line as fallbacks", regs)
	}
}
