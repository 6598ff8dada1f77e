package search

import (
	"flightalliance/search/booking"

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
	if regs := list.Registrations; len(regs) != 1 || !slices.Equal(regs[0].Targets(), []string{silent.URI, real.URI, alt.URI}) {
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
	if msg := errorOf(t, b); code != http.StatusServiceUnavailable || !strings.Contains(msg, booking.KeyHeader) {
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
