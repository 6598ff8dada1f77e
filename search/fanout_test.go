package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"flightalliance/soap"
)

// registerWithAlternates registers name's delegate and alternates, as a delegate does.
func (ts *testServer) registerWithAlternates(t testing.TB, name, uri string, alternates ...string) {
	t.Helper()
	body, _ := json.Marshal(RegisterBody{URI: uri, Alternates: alternates})
	if code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/"+name, string(body)); code != http.StatusOK {
		t.Fatalf("register %s: %d %s", name, code, b)
	}
}

// stuckUntilCancelled is a delegate that answers (incomplete) only once its caller gives up.
func stuckUntilCancelled(ctx context.Context, _ *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	<-ctx.Done()
	return &soap.GetTripsResponse{MissingSellers: []string{"LY", "UA"}}, nil
}

func incomplete(missing ...string) getTripsFunc {
	return answer(soap.GetTripsResponse{Trips: starTrips.Trips[:1], MissingSellers: missing})
}

func failing(context.Context, *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	return nil, soap.ServerFault("not ready: this machine has not read the alliance's state yet")
}

// A dead delegate (connection refused) costs nothing: its alternate is asked at once.
func TestSearchAsksTheAlternateOfADeadDelegate(t *testing.T) {
	dead := startDelegate(t, answer(starTrips))
	deadURI := dead.URI
	dead.srv.Close()
	alt := startDelegate(t, answer(starTrips))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: time.Minute})
	ts.registerWithAlternates(t, "star", deadURI, alt.URI)

	a := ts.search(t, query)
	if !allOfStar(a) {
		t.Fatalf("answer with a dead delegate and a live alternate: %+v", a)
	}
}

// A delegate that does not answer (paused, cut off) gets its alternate asked after the hedge
// delay: the answer is complete long before the delegate timeout.
func TestSearchHedgesASilentDelegate(t *testing.T) {
	stuck := startDelegate(t, stuckUntilCancelled)
	alt := startDelegate(t, answer(starTrips))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: 50 * time.Millisecond})
	ts.registerWithAlternates(t, "star", stuck.URI, alt.URI)

	a := ts.searchSoon(t, query, "the alternate was not asked while the delegate stayed silent")
	if !a.Complete || len(a.Trips) != len(starTrips.Trips) {
		t.Fatalf("hedged answer: %+v", a)
	}
	if stuck.calls.Load() != 1 || alt.calls.Load() != 1 {
		t.Errorf("calls: delegate %d, alternate %d; want one each", stuck.calls.Load(), alt.calls.Load())
	}
}

// Faults and incomplete answers move on to the next alternate; the first complete answer wins.
func TestSearchMovesOnFromFaultsAndIncompleteAnswers(t *testing.T) {
	fault := startDelegate(t, failing)
	partial := startDelegate(t, incomplete("UA"))
	full := startDelegate(t, answer(starTrips))
	never := startDelegate(t, answer(starTrips))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: time.Minute})
	ts.registerWithAlternates(t, "star", fault.URI, partial.URI, full.URI, never.URI)

	a := ts.search(t, query)
	if !allOfStar(a) {
		t.Fatalf("answer: %+v", a)
	}
	if never.calls.Load() != 0 {
		t.Errorf("an alternate after the first complete answer was asked %d times", never.calls.Load())
	}
}

// When nobody answers complete, the answer missing the fewest sellers is given, and says so;
// when nobody answers at all, every error is named.
func TestSearchWithoutACompleteAnswerSaysWhatIsMissing(t *testing.T) {
	worse := startDelegate(t, incomplete("LY", "UA"))
	better := startDelegate(t, incomplete("UA"))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: time.Minute})
	ts.registerWithAlternates(t, "star", worse.URI, better.URI)
	a := ts.search(t, query)
	st, _ := status(a, "star")
	if a.Complete || st.Complete || fmt.Sprint(st.MissingSellers) != "[UA]" || len(a.Trips) != 1 {
		t.Fatalf("answer: %+v", a)
	}

	f1 := startDelegate(t, failing)
	f2 := startDelegate(t, failing)
	ts.registerWithAlternates(t, "star", f1.URI, f2.URI)
	a = ts.search(t, query)
	st, _ = status(a, "star")
	if a.Complete || st.Complete || !strings.Contains(st.Error, f1.URI) || !strings.Contains(st.Error, f2.URI) {
		t.Fatalf("answer when every target fails: %+v", a)
	}
}

func TestRegisterRefusesBadAlternates(t *testing.T) {
	ts := startSearch(t, Config{})
	uri := "http://127.0.0.1:8101/Services/SellerService"
	many := make([]string, maxAlternates+1)
	for i := range many {
		many[i] = fmt.Sprintf("http://127.0.0.1:%d/Services/SellerService", 9000+i)
	}
	for _, tc := range []struct {
		alternates []string
		field      string
	}{
		{[]string{"ftp://x/y"}, "alternates[0]"},
		{[]string{"http://127.0.0.1:8102/S", ""}, "alternates[1]"},
		{[]string{uri}, "alternates[0]"},
		{[]string{"http://a/S", "http://a/S"}, "alternates[1]"},
		{many, "alternates"},
	} {
		body, _ := json.Marshal(RegisterBody{URI: uri, Alternates: tc.alternates})
		code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/star", string(body))
		if code != http.StatusBadRequest || !strings.Contains(string(b), tc.field) {
			t.Errorf("alternates %v: %d %s, want 400 naming %s", tc.alternates, code, b, tc.field)
		}
	}
	if regs := ts.list(t).Registrations; len(regs) != 0 {
		t.Fatalf("a refused registration changed the registry: %+v", regs)
	}
	ts.registerWithAlternates(t, "star", uri, "http://127.0.0.1:8102/Services/SellerService")
	if regs := ts.list(t).Registrations; len(regs) != 1 || len(regs[0].Alternates) != 1 {
		t.Fatalf("registrations: %+v", regs)
	}
}

// An answer that says it is another alliance's (a machine of another alliance now at an address
// this one registered) is not this alliance's: its alternate is asked, and with none the
// alliance is an error.
func TestAnotherAlliancesAnswerIsNotThisAlliances(t *testing.T) {
	oneworld := starTrips
	oneworld.Alliance = "oneworld"
	impostor := startDelegate(t, answer(oneworld))
	own := starTrips
	own.Alliance = "star"
	alt := startDelegate(t, answer(own))
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: time.Minute})
	ts.registerWithAlternates(t, "star", impostor.URI, alt.URI)
	if a := ts.search(t, query); !a.Complete || len(a.Trips) != len(starTrips.Trips) || alt.calls.Load() != 1 {
		t.Fatalf("with another alliance's answer first and this one's alternate: %+v (the alternate asked %d times)", a, alt.calls.Load())
	}
	ts = startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: time.Minute}) // a refresh would keep alt as a fallback
	ts.register(t, "star", impostor.URI)
	a := ts.search(t, query)
	if st, _ := status(a, "star"); a.Complete || len(a.Trips) != 0 || !strings.Contains(st.Error, `alliance "oneworld", not "star"`) {
		t.Fatalf("with another alliance's answer alone: %+v", a)
	}
}

// panicking is a Delegate whose call panics (a client's decoding of a bad answer, say).
type panicking struct{}

func (panicking) GetTrips(context.Context, soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	panic("decoding went wrong")
}

// A delegate's call that panics fails that alliance's part only: the search server answers, and
// goes on answering.
func TestAPanickingDelegateCallFailsItsAllianceOnly(t *testing.T) {
	sky := startDelegate(t, answer(skyTrips))
	soapDial := SOAPDial(time.Minute)
	dial := func(uri string) (Delegate, error) {
		if strings.Contains(uri, "panics") {
			return panicking{}, nil
		}
		return soapDial(uri)
	}
	ts := startSearch(t, Config{DelegateTimeout: time.Minute, HedgeDelay: time.Minute, Dial: dial})
	ts.register(t, "sky", sky.URI)
	ts.register(t, "star", "http://panics.example/soap")
	for range 2 {
		a := ts.search(t, query)
		st, _ := status(a, "star")
		if a.Complete || len(a.Trips) != len(skyTrips.Trips) || !strings.Contains(st.Error, "panicked") {
			t.Fatalf("with a panicking delegate call: %+v", a)
		}
	}
}
