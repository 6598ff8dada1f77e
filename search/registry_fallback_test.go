package search

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/soap"
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
	r := NewRegistry(30*time.Second, clk.now)
	r.Register("star", m1, m2, m3)
	clk.advance(10 * time.Second)
	reg, replaced := r.Register("star", m1)
	want := []Fallback{{m2, clk.now().Add(20 * time.Second)}, {m3, clk.now().Add(20 * time.Second)}}
	if replaced != "" || !slices.Equal(reg.Previous, want) {
		t.Fatalf("refresh without alternates: replaced %q, fallbacks %+v; want none replaced, fallbacks %+v", replaced, reg.Previous, want)
	}
	if got := r.All()[0].targets(); !slices.Equal(got, []string{m1, m2, m3}) {
		t.Fatalf("targets = %v, want the delegate, then the alternates it dropped", got)
	}
	clk.advance(5 * time.Second)
	reg, _ = r.Register("star", m1, m3)
	if want := []Fallback{{m2, clk.now().Add(15 * time.Second)}}; !slices.Equal(reg.Previous, want) {
		t.Fatalf("refresh naming m3 again: fallbacks %+v, want %+v", reg.Previous, want)
	}
	clk.advance(15 * time.Second)
	if got := r.All()[0].targets(); !slices.Equal(got, []string{m1, m3}) {
		t.Fatalf("targets once the dropped alternate lapsed = %v, want [m1 m3]", got)
	}
}

// Over HTTP, as in TestAnswersStayCompleteWhileTheEtcdLeaderIsPaused: the delegate refreshes
// naming no alternates, then goes silent (paused). The search answers complete from an alternate
// it dropped, after the hedge delay rather than the delegate timeout.
func TestSearchAsksTheDroppedAlternatesWhenTheDelegateIsSilent(t *testing.T) {
	paused := startDelegate(t, stuckUntilCancelled)
	alt := startDelegate(t, answer(starTrips))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: 50 * time.Millisecond})
	ts.registerWithAlternates(t, "star", paused.URI, alt.URI)
	ts.registerWithAlternates(t, "star", paused.URI)

	a := ts.searchSoon(t, query, "the dropped alternate was not asked while the delegate stayed silent")
	if !allOfStar(a) {
		t.Fatalf("answer with a silent delegate: %+v", a)
	}
	if paused.calls.Load() != 1 || alt.calls.Load() != 1 {
		t.Errorf("calls: delegate %d, dropped alternate %d; want 1, 1", paused.calls.Load(), alt.calls.Load())
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

	a := ts.searchSoon(t, query, "the replaced delegate was not asked while its replacement stayed silent")
	if !allOfStar(a) {
		t.Fatalf("answer with a silent replacement: %+v", a)
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

// A line that answers — here incomplete — ends the fallbacks' turn: a fallback that is itself
// silent (the delegate the line took over from) is not asked, and the answer does not wait for it.
func TestAnAnsweringLineLeavesItsFallbacksAlone(t *testing.T) {
	stuck := startDelegate(t, stuckUntilCancelled)
	partial := startDelegate(t, incomplete("UA"))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: 50 * time.Millisecond})
	ts.registerWithAlternates(t, "star", stuck.URI)
	ts.registerWithAlternates(t, "star", partial.URI)

	a := ts.searchSoon(t, query, "an incomplete answer waited for a silent fallback")
	if st, _ := status(a, "star"); a.Complete || st.Complete || !slices.Equal(st.MissingSellers, []string{"UA"}) {
		t.Fatalf("answer: %+v, want the line's, missing UA", a)
	}
	if stuck.calls.Load() != 0 {
		t.Errorf("the fallback was asked %d times after the line answered", stuck.calls.Load())
	}
}

// Bookings take the fallbacks after a line that gave no answer (a mistaken registration whose
// machine went away), never after one that answered: "unavailable" from the line is the
// alliance's answer, and a silent fallback would only make it "outcome unknown".
func TestBookingAsksTheFallbacksOnlyAfterASilentLine(t *testing.T) {
	real, gone := newMachine("m1"), newMachine("m2")
	gone.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
		return nil, errors.New("dial tcp 10.0.0.2:8101: connection refused")
	}
	ts := startAlliance(t, Config{}, real, gone)
	ts.registerWithAlternates(t, "star", gone.uri) // m2 replaces m1, naming nobody
	if code, b := ts.book(t, "k1", goodBooking); code != http.StatusCreated {
		t.Fatalf("%d %s, want 201 from the replaced delegate", code, b)
	}
	if got := real.called(); !slices.Equal(got, []string{"reserve k1"}) {
		t.Errorf("the replaced delegate was asked %q, want once", got)
	}

	gone.reserve = func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
		return nil, soap.KindFault(soap.KindUnavailable, "no quorum")
	}
	code, b := ts.book(t, "k2", goodBooking)
	if msg := errorOf(t, b); code != http.StatusServiceUnavailable || !strings.Contains(msg, "no quorum") {
		t.Errorf("the line unavailable: %d %q, want its 503", code, msg)
	}
	if got := real.called(); len(got) != 1 {
		t.Errorf("the fallback was asked %q after the line answered, want only the first booking", got)
	}
}

// Another alliance's machine now at an address this one registered refuses its bookings as not
// its alliance's ("other-alliance"). That refusal is not this alliance's answer: after a delegate
// that gave no answer it must not turn "the outcome is unknown" into "not found"; and at the
// front of the line it must not keep the booking from the machines after it.
func TestAnotherAlliancesMachineDoesNotAnswerForThisOne(t *testing.T) {
	otherAlliance := func(context.Context, soap.ReserveRequest) (*soap.ReserveResponse, error) {
		return nil, soap.KindFault(soap.KindOtherAlliance, "alliance: this is alliance oneworld, not star")
	}
	m1, impostor := newMachine("m1"), newMachine("m2")
	m1.reserve = func(ctx context.Context, _ soap.ReserveRequest) (*soap.ReserveResponse, error) {
		<-ctx.Done() // took the request, never answered
		return nil, ctx.Err()
	}
	impostor.reserve = otherAlliance
	ts := startAlliance(t, Config{DelegateTimeout: 200 * time.Millisecond}, m1, impostor)
	ts.registerWithAlternates(t, "star", m1.uri) // a refresh that dropped m2: a fallback now
	code, b := ts.book(t, "k1", goodBooking)
	if msg := errorOf(t, b); code != http.StatusServiceUnavailable || !strings.Contains(msg, keyHeader) {
		t.Errorf("a silent delegate, then another alliance's machine: %d %q, want 503, the outcome unknown (retry with the key)", code, msg)
	}
	if got := impostor.called(); !slices.Equal(got, []string{"reserve k1"}) {
		t.Errorf("the dropped alternate was asked %q, want once", got)
	}

	real := newMachine("m3")
	ts = startAlliance(t, Config{}, impostor, real) // the impostor first in line, m3 its alternate
	if code, b := ts.book(t, "k2", goodBooking); code != http.StatusCreated {
		t.Fatalf("another alliance's machine first in line: %d %s, want 201 from the alliance's own", code, b)
	}
	if got := real.called(); !slices.Equal(got, []string{"reserve k2"}) {
		t.Errorf("the alliance's own machine was asked %q, want once", got)
	}
}
