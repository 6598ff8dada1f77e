package search

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/search/internal/searchtest"
	"flightalliance/soap"
)

// getTripsFunc is what an in-process delegate answers to getTrips.
type getTripsFunc func(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error)

// delegate is a real SOAP SellerService served over HTTP on 127.0.0.1, as an alliance's
// delegate serves it.
type delegate struct {
	srv         *httptest.Server
	URI         string
	wsdlGets    atomic.Int64
	calls       atomic.Int64
	lastSellers atomic.Pointer[[]string]
}

func startDelegate(t testing.TB, fn getTripsFunc) *delegate {
	t.Helper()
	d := &delegate{}
	mux := http.NewServeMux()
	d.srv = httptest.NewServer(mux)
	t.Cleanup(d.srv.Close)
	d.URI = d.srv.URL + soap.SellerServicePath
	op := soap.Op(soap.OpGetTrips, func(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
		d.calls.Add(1)
		sellers := req.Sellers
		d.lastSellers.Store(&sellers)
		return fn(ctx, req)
	})
	h := soap.NewHandler(soap.SellerService(op), soap.HandlerOptions{Address: d.srv.URL})
	mux.Handle(soap.SellerServicePath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			d.wsdlGets.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	return d
}

// answer is a delegate that always gives resp.
func answer(resp soap.GetTripsResponse) getTripsFunc {
	return func(context.Context, *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
		r := resp
		return &r, nil
	}
}

// slow is a delegate that answers only when its caller gives up (or after a minute).
func slow(ctx context.Context, _ *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
	return &soap.GetTripsResponse{Complete: true}, nil
}

type testServer struct {
	*Server
	URL string
}

func startSearch(t testing.TB, cfg Config) *testServer {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return &testServer{Server: s, URL: ts.URL}
}

// do sends a request and returns the status and body.
func do(t testing.TB, method, url, body string) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func (ts *testServer) register(t testing.TB, name, uri string) {
	t.Helper()
	body, _ := json.Marshal(RegisterBody{URI: uri})
	if code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/"+name, string(body)); code != http.StatusOK {
		t.Fatalf("register %s: %d %s", name, code, b)
	}
}

func (ts *testServer) search(t testing.TB, query string) Answer {
	t.Helper()
	code, b := do(t, http.MethodGet, ts.URL+"/Services/FlightsSearch/flight?"+query, "")
	return answerOf(t, query, code, b, nil)
}

// answerOf decodes a search's 200 answer strictly, failing the test on anything else.
func answerOf(t testing.TB, query string, code int, body []byte, err error) Answer {
	t.Helper()
	if err != nil || code != http.StatusOK {
		t.Fatalf("search %s: %d %s %v", query, code, body, err)
	}
	var a Answer
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("search %s: %v in %s", query, err, body)
	}
	return a
}

// allOfStar reports whether a is complete, star's status complete, with every trip of starTrips.
func allOfStar(a Answer) bool {
	st, _ := status(a, "star")
	return a.Complete && st.Complete && len(a.Trips) == len(starTrips.Trips)
}

// searchSoon is search, failing the test with why when no answer comes within 30 s: the tests
// that use it set the delegate timeout to a minute, so that only a hedge answers sooner.
func (ts *testServer) searchSoon(t testing.TB, query, why string) Answer {
	t.Helper()
	type reply struct {
		code int
		body []byte
		err  error
	}
	done := make(chan reply, 1)
	go func() { // no t.Fatal here: only the test's goroutine may end it
		resp, err := http.Get(ts.URL + "/Services/FlightsSearch/flight?" + query)
		if err != nil {
			done <- reply{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		done <- reply{resp.StatusCode, b, err}
	}()
	select {
	case r := <-done:
		return answerOf(t, query, r.code, r.body, r.err)
	case <-time.After(30 * time.Second):
		t.Fatal(why)
		return Answer{}
	}
}

func (ts *testServer) list(t testing.TB) RegistrationList {
	t.Helper()
	code, b := do(t, http.MethodGet, ts.URL+"/Services/FlightsSearchReg/", "")
	if code != http.StatusOK {
		t.Fatalf("list: %d %s", code, b)
	}
	var l RegistrationList
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

func status(a Answer, name string) (AllianceStatus, bool) {
	for _, s := range a.Alliances {
		if s.Name == name {
			return s, true
		}
	}
	return AllianceStatus{}, false
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var (
	starTrips = soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{
		wireTrip("512.00", leg("LY001", "TLV", "JFK", "08:00", "19:10", "512.00")),
		wireTrip("430.00", leg("LY007", "TLV", "ATH", "06:00", "08:00", "130.00"), leg("UA220", "ATH", "JFK", "09:30", "20:00", "300.00")),
	}}
	skyTrips = soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{
		wireTrip("512.00", leg("AF300", "TLV", "JFK", "07:00", "18:00", "512.00")),
	}}
)

// The fixtures shared with the tests of the search server's other packages.
var (
	leg                = searchtest.Leg
	wireTrip           = searchtest.WireTrip
	flightPool         = searchtest.FlightPool
	randomAirlineTrips = searchtest.RandomAirlineTrips
	toWire             = searchtest.ToWire
)

var tlvJFK = Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}

func flightsOf(a Answer) []string {
	var out []string
	for _, t := range a.Trips {
		var fs []string
		for _, l := range t.Legs {
			fs = append(fs, l.Flight)
		}
		out = append(out, strings.Join(fs, "+"))
	}
	return out
}

// legsID identifies the trip of an answer by its flights (seller/number>seller/number).
func legsID(t Trip) string {
	var parts []string
	for _, l := range t.Legs {
		parts = append(parts, l.Seller+"/"+l.Flight)
	}
	return strings.Join(parts, ">")
}

func names(regs []Registration) []string {
	var out []string
	for _, r := range regs {
		out = append(out, r.Name)
	}
	return out
}
