package search

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/soap"
)

const query = "src=TLV&dst=JFK&date=2026-12-01"

func TestSearchMergesAlliancesOverSOAP(t *testing.T) {
	star := startDelegate(t, answer(starTrips))
	sky := startDelegate(t, answer(skyTrips))
	ts := startSearch(t, Config{})
	ts.register(t, "star", star.URI)
	ts.register(t, "sky", sky.URI)

	a := ts.search(t, query+"&servers=LY,UA,AF")
	if got, want := flightsOf(a), []string{"LY007+UA220", "AF300", "LY001"}; !slices.Equal(got, want) {
		t.Fatalf("trips = %v, want %v (by price, then arrival)", got, want)
	}
	if !a.Complete || len(a.Alliances) != 2 || a.Alliances[0].Name != "sky" || !a.Alliances[1].Complete {
		t.Errorf("complete=%v alliances=%+v", a.Complete, a.Alliances)
	}
	if a.Trips[0].Legs[1].Alliance != "star" || a.Trips[1].Legs[0].Alliance != "sky" {
		t.Errorf("legs not stamped with the registration name: %+v", a.Trips[:2])
	}
	if got := *star.lastSellers.Load(); !slices.Equal(got, []string{"LY", "UA", "AF"}) {
		t.Errorf("delegate was asked for sellers %v", got)
	}
	if a.Query.Servers == nil || a.Query.Date != "2026-12-01" {
		t.Errorf("query echo = %+v", a.Query)
	}
}

// With no alliance known there is nothing to search: 503, never an empty "complete" list.
func TestSearchWithoutRegistrationsIs503(t *testing.T) {
	ts := startSearch(t, Config{})
	code, b := do(t, http.MethodGet, ts.URL+"/Services/FlightsSearch/flight?"+query, "")
	var e ErrorBody
	if code != http.StatusServiceUnavailable || json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error, "no alliance") {
		t.Fatalf("search with no alliance known: %d %s, want 503 with an error", code, b)
	}
}

func TestSearchSlowDelegateMakesTheAnswerIncomplete(t *testing.T) {
	star := startDelegate(t, answer(starTrips))
	stuck := startDelegate(t, slow)
	ts := startSearch(t, Config{DelegateTimeout: 300 * time.Millisecond})
	ts.register(t, "star", star.URI)
	ts.register(t, "stuck", stuck.URI)

	start := time.Now()
	a := ts.search(t, query)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("search took %s with a 300ms delegate timeout", took)
	}
	if a.Complete {
		t.Fatal("answer complete although a delegate never answered")
	}
	st, _ := status(a, "stuck")
	if st.Complete || !strings.Contains(st.Error, "did not answer within 300ms") || st.MissingSellers == nil {
		t.Errorf("stuck = %+v", st)
	}
	if st, _ := status(a, "star"); !st.Complete || len(a.Trips) != 2 {
		t.Errorf("the answering alliance is lost: %+v, %d trips", st, len(a.Trips))
	}
}

func TestSearchFaultMakesTheAnswerIncomplete(t *testing.T) {
	faulty := startDelegate(t, func(context.Context, *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
		return nil, soap.ServerFault("seller store unavailable")
	})
	ts := startSearch(t, Config{})
	ts.register(t, "faulty", faulty.URI)
	a := ts.search(t, query)
	st, _ := status(a, "faulty")
	if a.Complete || st.Complete || !strings.Contains(st.Error, "seller store unavailable") {
		t.Errorf("complete=%v faulty=%+v", a.Complete, st)
	}
}

func TestSearchReportsMissingSellers(t *testing.T) {
	partial := startDelegate(t, answer(soap.GetTripsResponse{Complete: false, MissingSellers: []string{"UA", "BA"},
		Trips: starTrips.Trips[:1]}))
	ts := startSearch(t, Config{})
	ts.register(t, "oneworld", partial.URI)
	a := ts.search(t, query)
	st, _ := status(a, "oneworld")
	if a.Complete || st.Complete || !slices.Equal(st.MissingSellers, []string{"BA", "UA"}) || st.Error != "" {
		t.Errorf("complete=%v oneworld=%+v", a.Complete, st)
	}
	if len(a.Trips) != 1 {
		t.Errorf("trips = %v: what the alliance did answer is lost", flightsOf(a))
	}
}

func TestSearchUnreachableDelegateIsIncomplete(t *testing.T) {
	gone := startDelegate(t, answer(skyTrips))
	gone.srv.Close()
	ts := startSearch(t, Config{})
	ts.register(t, "gone", gone.URI)
	a := ts.search(t, query)
	if st, ok := status(a, "gone"); !ok || st.Complete || st.Error == "" || a.Complete {
		t.Errorf("complete=%v gone=%+v", a.Complete, st)
	}
}

// An alliance whose delegate stops refreshing goes stale: it stays in every answer, incomplete,
// with an error saying since when it is silent, and is no longer asked; it comes back complete
// when its delegate registers again.
func TestStaleAllianceIsReportedNotDropped(t *testing.T) {
	kept := startDelegate(t, answer(starTrips))
	silent := startDelegate(t, answer(skyTrips))
	ts := startSearch(t, Config{RegistrationTTL: 400 * time.Millisecond})
	ts.register(t, "kept", kept.URI)
	ts.register(t, "silent", silent.URI)
	if a := ts.search(t, query); !a.Complete {
		t.Fatalf("before the TTL: %+v", a.Alliances)
	}
	lastSeen := ts.list(t).Registrations[1].LastSeen
	eventually(t, 5*time.Second, "the unrefreshed registration did not go stale", func() bool {
		ts.register(t, "kept", kept.URI) // the live delegate keeps refreshing
		l := ts.list(t).Registrations
		return len(l) == 2 && !l[0].Stale && l[1].Stale
	})
	calls := silent.calls.Load()
	a := ts.search(t, query)
	st, ok := status(a, "silent")
	since := lastSeen.UTC().Format(time.RFC3339)
	if !ok || st.Complete || a.Complete || !strings.Contains(st.Error, "silent since "+since) {
		t.Fatalf("stale alliance: complete=%v status=%+v (found %v), want incomplete, silent since %s", a.Complete, st, ok, since)
	}
	if got := flightsOf(a); !slices.Equal(got, []string{"LY007+UA220", "LY001"}) {
		t.Errorf("trips = %v, want the live alliance's", got)
	}
	if silent.calls.Load() != calls {
		t.Error("a stale alliance's delegate was asked")
	}
	ts.register(t, "silent", silent.URI)
	if a := ts.search(t, query); !a.Complete || len(a.Alliances) != 2 {
		t.Fatalf("after the silent delegate registered again: %+v", a.Alliances)
	}
}

func TestRegisterReplacesAndListingShowsTimes(t *testing.T) {
	old := startDelegate(t, answer(skyTrips))
	repl := startDelegate(t, answer(starTrips))
	ts := startSearch(t, Config{RegistrationTTL: time.Minute})
	before := time.Now()
	ts.register(t, "star", old.URI)
	ts.search(t, query)
	ts.register(t, "star", repl.URI)

	l := ts.list(t)
	if len(l.Registrations) != 1 {
		t.Fatalf("listing = %+v, want one registration", l)
	}
	r := l.Registrations[0]
	if r.URI != repl.URI || r.RegisteredAt.Before(before) || r.ExpiresAt.Sub(r.LastSeen) != time.Minute {
		t.Errorf("registration = %+v", r)
	}
	a := ts.search(t, query)
	if got := flightsOf(a); !slices.Equal(got, []string{"LY007+UA220", "LY001"}) {
		t.Errorf("trips = %v, want the new delegate's", got)
	}
	if old.calls.Load() != 1 || repl.calls.Load() != 1 {
		t.Errorf("old delegate called %d times, new %d; want 1 and 1", old.calls.Load(), repl.calls.Load())
	}
}

func TestUnregisterByCallerAddressAndByCluster(t *testing.T) {
	ts := startSearch(t, Config{})
	ts.register(t, "local", "http://127.0.0.1:8101/Services/SellerService")
	ts.register(t, "local2", "http://localhost:8102/Services/SellerService")
	ts.register(t, "remote", "http://10.1.2.3:8101/Services/SellerService")
	ts.register(t, "other", "http://10.1.2.4:8101/Services/SellerService")

	// The test's requests come from 127.0.0.1.
	code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Unregister", "")
	if code != http.StatusOK || !strings.Contains(string(b), `"local"`) || !strings.Contains(string(b), `"local2"`) || strings.Contains(string(b), "remote") {
		t.Fatalf("unregister by address: %d %s", code, b)
	}
	if got := names(ts.list(t).Registrations); !slices.Equal(got, []string{"other", "remote"}) {
		t.Fatalf("left %v, want [other remote]", got)
	}
	code, b = do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Unregister?cluster=remote", "")
	if code != http.StatusOK || !strings.Contains(string(b), `"remote"`) {
		t.Fatalf("unregister by cluster: %d %s", code, b)
	}
	if got := names(ts.list(t).Registrations); !slices.Equal(got, []string{"other"}) {
		t.Fatalf("left %v, want [other]", got)
	}
	code, b = do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Unregister?cluster=remote", "")
	if code != http.StatusOK || string(b) != "{\"removed\":[]}\n" {
		t.Errorf("unregistering twice: %d %s", code, b)
	}
}

func TestClientsAreCachedPerURI(t *testing.T) {
	star := startDelegate(t, answer(starTrips))
	ts := startSearch(t, Config{})
	ts.register(t, "star", star.URI)
	for range 5 {
		ts.search(t, query)
	}
	if star.calls.Load() != 5 || star.wsdlGets.Load() != 1 {
		t.Errorf("5 searches: %d calls, %d WSDL fetches; want 5 and 1 (one cached client)", star.calls.Load(), star.wsdlGets.Load())
	}
	do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Unregister?cluster=star", "")
	if n := ts.clients.len(); n != 0 {
		t.Errorf("%d clients cached after the only registration was removed", n)
	}
}

func TestHealthzAndMetrics(t *testing.T) {
	stuck := startDelegate(t, slow)
	ts := startSearch(t, Config{DelegateTimeout: 100 * time.Millisecond})
	ts.register(t, "stuck", stuck.URI)
	ts.search(t, query)
	do(t, http.MethodGet, ts.URL+"/Services/FlightsSearch/flight?src=TLV", "")

	if code, b := do(t, http.MethodGet, ts.URL+"/healthz", ""); code != http.StatusOK || !strings.Contains(string(b), "ok") {
		t.Errorf("healthz: %d %s", code, b)
	}
	code, b := do(t, http.MethodGet, ts.URL+"/metrics", "")
	if code != http.StatusOK {
		t.Fatalf("metrics: %d", code)
	}
	for _, want := range []string{
		`search_http_requests_total{code="200",route="/Services/FlightsSearch/flight"} 1`,
		`search_http_requests_total{code="400",route="/Services/FlightsSearch/flight"} 1`,
		`search_http_requests_total{code="200",route="/Services/FlightsSearchReg/Register/{clustername}"} 1`,
		`search_delegate_errors_total{alliance="stuck",reason="timeout"} 1`,
		`search_fanout_duration_seconds_count 1`,
		`search_registrations 1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{{RegistrationTTL: -1}, {DelegateTimeout: -time.Second}, {ShutdownTimeout: -1}, {OrderedSearches: -2}, {OrderWait: -time.Millisecond}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
