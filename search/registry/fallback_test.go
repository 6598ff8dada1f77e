package registry

import (
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
	r := New(30*time.Second, clk.now)
	targets := func() []string {
		t.Helper()
		regs := r.All()
		if len(regs) != 1 {
			t.Fatalf("registrations = %+v, want one", regs)
		}
		return regs[0].Targets()
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
	if got := reg.Targets(); !slices.Equal(got, []string{m4, m3}) || reg.Previous != nil {
		t.Fatalf("targets 30 s after m2's refresh = %v (fallbacks %+v), want only m4's line", got, reg.Previous)
	}
	// A stale registration leaves no fallback: its delegate had gone silent.
	clk.advance(time.Minute)
	r.Register("star", m1)
	if got := targets(); !slices.Equal(got, []string{m1}) {
		t.Fatalf("targets after replacing a stale registration = %v, want [m1]", got)
	}
}

// A delegate's view can lose the other machines for a moment — etcd's old leader, resumed after
// a pause, revokes every lease (etcd-io/etcd#15247) — and its refresh then names no alternates.
// The ones it named stay, as fallbacks, until its former registration would have lapsed; one it
// names again is an alternate, not also a fallback.
func TestAlternatesARefreshDropsStayFallbacks(t *testing.T) {
	const (
		m1 = "https://10.0.0.1:8101/Services/SellerService"
		m2 = "https://10.0.0.2:8101/Services/SellerService"
		m3 = "https://10.0.0.3:8101/Services/SellerService"
	)
	clk := &fakeClock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	r := New(30*time.Second, clk.now)
	r.Register("star", m1, m2, m3)
	clk.advance(10 * time.Second)
	reg, replaced := r.Register("star", m1)
	want := []Fallback{{m2, clk.now().Add(20 * time.Second)}, {m3, clk.now().Add(20 * time.Second)}}
	if replaced != "" || !slices.Equal(reg.Previous, want) {
		t.Fatalf("refresh without alternates: replaced %q, fallbacks %+v; want none replaced, fallbacks %+v", replaced, reg.Previous, want)
	}
	if got := r.All()[0].Targets(); !slices.Equal(got, []string{m1, m2, m3}) {
		t.Fatalf("targets = %v, want the delegate, then the alternates it dropped", got)
	}
	clk.advance(5 * time.Second)
	reg, _ = r.Register("star", m1, m3)
	if want := []Fallback{{m2, clk.now().Add(15 * time.Second)}}; !slices.Equal(reg.Previous, want) {
		t.Fatalf("refresh naming m3 again: fallbacks %+v, want %+v", reg.Previous, want)
	}
	clk.advance(15 * time.Second)
	if got := r.All()[0].Targets(); !slices.Equal(got, []string{m1, m3}) {
		t.Fatalf("targets once the dropped alternate lapsed = %v, want [m1 m3]", got)
	}
}

func TestFallbacksAreBounded(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	r := New(30*time.Second, clk.now)
	for i := range 3 * maxFallbacks {
		uri := "https://10.0.1." + string(rune('a'+i)) + ":8101/Services/SellerService"
		r.Register("star", uri, uri+"/alt")
	}
	if got := len(r.All()[0].Previous); got != maxFallbacks {
		t.Fatalf("%d fallbacks after %d replacements, want at most %d", got, 3*maxFallbacks, maxFallbacks)
	}
}
