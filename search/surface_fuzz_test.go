package search

import (
	"flightalliance/search/booking"

	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/search/console"
)

// FuzzHTTPSurface sends any request to the search server as a deployment runs it (a trust file:
// registering needs the alliance's token), with alliance "star" registered on two machines that
// answer every operation. Whatever the method, path, query, headers and body:
//
//   - the answer is never a 5xx but 503 (no alliance registered, or busy): a 500 for a request is
//     a defect, whatever the request;
//   - every 4xx and 5xx is JSON with a non-empty "error", and a 405 says in Allow the methods the
//     path does take (each of them is tried);
//   - a refused request changes nothing: the registrations stay as they were, and no machine is
//     asked anything (but for the lookups of a booking, which a machine answers 404);
//   - it is answered within seconds.
//
// The seeds are a request of each route, good and bad; go test runs them, and
// go test -fuzz FuzzHTTPSurface ./search/ looks for more.
func FuzzHTTPSurface(f *testing.F) {
	const (
		flight   = "/Services/FlightsSearch/flight"
		register = "/Services/FlightsSearchReg/Register/"
		goodURI  = `{"uri":"http://127.0.0.1:8101/Services/SellerService"}`
	)
	for _, s := range []struct {
		method         uint8
		path, query    string
		auth           uint8
		key, body      string
		contentTypeSel uint8
	}{
		{0, flight, "src=TLV&dst=JFK&date=2026-12-01", 0, "", "", 0},
		{0, flight, "src=TLV&dst=JFK&date=2026-12-01&servers=LY,UA&limit=5&offset=1&sort=duration&nonstop=false&max_price=100.5", 0, "", "", 0},
		{0, flight, "src=TLV&dst=JFK&date=2026-12-01&servers=LY;UA", 0, "", "", 0},
		{0, flight, "src=%ZZ&dst=JFK&date=2026-02-30", 0, "", "", 0},
		{2, booking.Path, "", 0, "k1", goodBooking, 1},
		{2, booking.Path, "", 0, "", `{"alliance":"star","legs":[{"seller":"LY"}],"seats":-1}`, 1},
		{2, booking.Path, "", 0, "k2", `{"alliance":"star","legs":[],"seats":1e400}`, 2},
		{0, booking.Path + "/" + sampleBookingID, "", 0, "", "", 0},
		{0, booking.Path + "/nope", "", 0, "", "", 0},
		{3, booking.Path + "/" + sampleBookingID, "", 0, "k3", "", 0},
		{2, booking.Path + "/" + sampleBookingID + "/confirm", "", 0, "k4", "", 0},
		{0, "/Services/FlightsSearch/seats", "alliance=star&seller=LY&flight=LY001", 0, "", "", 0},
		{0, "/Services/FlightsSearch/seats", "alliance=star&seller=L&flight=", 0, "", "", 0},
		{1, register + "star", "", 1, "", goodURI, 1},
		{1, register + "star", "", 2, "", goodURI, 1},
		{1, register + "star", "", 0, "", goodURI, 1},
		{1, register + "sky", "", 2, "", `{"uri":"http://127.0.0.1:8101/","alternates":["http://127.0.0.1:8102/",""]}`, 1},
		{1, register + "star.x", "ttl=5", 1, "", `{"uri":`, 1},
		{1, "/Services/FlightsSearchReg/Unregister", "cluster=star", 1, "", "", 0},
		{1, "/Services/FlightsSearchReg/Unregister", "cluster=a;b", 1, "", "", 0},
		{0, "/Services/FlightsSearchReg/", "", 0, "", "", 0},
		{0, console.AlliancesPath, "", 0, "", "", 0},
		{0, "/console/app.js", "", 0, "", "", 0},
		{4, "/openapi.json", "", 0, "", "", 0},
		{5, "/nope", "x=1", 3, "Bearer x", "{}", 3},
		{10, "/nope", "", 0, "", "", 0},
		{9, "/openapi.json", "", 0, "", "", 0},
	} {
		f.Add(s.method, s.path, s.query, s.auth, s.key, s.body, s.contentTypeSel)
	}
	trust, star, sky := testTrust(f)
	f.Fuzz(func(t *testing.T, methodSel uint8, path, query string, authSel uint8, key, body string, contentTypeSel uint8) {
		methods := []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete, http.MethodHead, http.MethodPatch,
			http.MethodOptions, http.MethodTrace, http.MethodConnect, "PROPFIND", "FOO"}
		method := methods[int(methodSel)%len(methods)]
		target := path
		if query != "" {
			target += "?" + query
		}
		// The request as it comes off the wire: one that net/http cannot read is refused before
		// any handler sees it.
		var head strings.Builder
		fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nHost: search.test\r\n", method, target)
		switch authSel % 4 {
		case 1:
			fmt.Fprintf(&head, "Authorization: Bearer %s\r\n", star)
		case 2:
			fmt.Fprintf(&head, "Authorization: Bearer %s\r\n", sky)
		case 3:
			fmt.Fprintf(&head, "Authorization: %s\r\n", key)
		}
		if key != "" {
			fmt.Fprintf(&head, "%s: %s\r\n", booking.KeyHeader, key)
		}
		switch contentTypeSel % 4 {
		case 1:
			head.WriteString("Content-Type: application/json\r\n")
		case 2:
			head.WriteString("Content-Type: application/json; charset=utf-8\r\n")
		case 3:
			head.WriteString("Content-Type: text/plain\r\n")
		}
		fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n%s", len(body), body)
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(head.String())))
		if err != nil {
			t.Skip()
		}

		machines := []*machine{newMachine("m1"), newMachine("m2")}
		// A clock a second on at every reading: a registration renewed is a registration changed.
		var clock atomic.Int64
		now := func() time.Time { return time.Unix(1_800_000_000+clock.Add(1), 0) }
		ts := startAllianceHandler(t, Config{Trust: trust, Now: now}, star, machines...)
		before := registrations(ts.reg)
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			ts.Handler().ServeHTTP(rec, req)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s %s?%s: no answer within 10s", method, path, query)
		}

		code := rec.Code
		what := fmt.Sprintf("%s %.80q?%.80q key %.20q body %.80q: %d %.200s", method, path, query, key, body, code, rec.Body.Bytes())
		if code >= 500 && code != http.StatusServiceUnavailable {
			t.Fatalf("%s: a 5xx other than 503", what)
		}
		if code < 400 {
			return
		}
		// (The recorder keeps a HEAD's body: it is checked as GET's.)
		var e ErrorBody
		ct, _, _ := mime.ParseMediaType(rec.Header().Get("Content-Type"))
		if ct != "application/json" || json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
			t.Fatalf("%s: not a JSON error", what)
		}
		if after := registrations(ts.reg); !slices.Equal(before, after) {
			t.Fatalf("%s: refused, yet the registrations went from %v to %v", what, before, after)
		}
		for _, m := range machines {
			if n := m.searches.Load(); n > 0 {
				t.Fatalf("%s: refused, yet %s was asked %d searches", what, m.uri, n)
			}
			for _, call := range m.called() {
				if code != http.StatusNotFound || !lookupOfAnother(call) {
					t.Fatalf("%s: refused, yet %s was asked %q", what, m.uri, call)
				}
			}
		}
		if code == http.StatusMethodNotAllowed {
			checkAllow(t, ts, req, what, rec.Header().Get("Allow"))
		}
	})
}

// lookupOfAnother reports whether a machine's call looks up (gets, cancels or confirms) a
// booking it does not have: the one call a refused request may make (404 is its answer).
func lookupOfAnother(call string) bool {
	op, rest, _ := strings.Cut(call, " ")
	id, _, _ := strings.Cut(rest, " ")
	return (op == "getBooking" || op == "cancel" || op == "confirm") && id != sampleBookingID
}

// checkAllow checks a 405's Allow against the server: it names methods, not the one refused,
// and each of them is taken by the path.
func checkAllow(t *testing.T, s *Server, refused *http.Request, what, allow string) {
	t.Helper()
	if allow == "" {
		t.Fatalf("%s: a 405 without Allow", what)
	}
	for _, m := range strings.Split(allow, ", ") {
		if m == refused.Method {
			t.Fatalf("%s: Allow %q names the method refused", what, allow)
		}
		req := refused.Clone(refused.Context())
		req.Method, req.Body, req.ContentLength = m, http.NoBody, 0
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		if rec.Code == http.StatusMethodNotAllowed {
			t.Fatalf("%s: Allow %q, yet %s is refused too", what, allow, m)
		}
	}
}

// startAllianceHandler is startAlliance without a listener: a server with the given config,
// logging nowhere, whose clients are the machines, with alliance "star" registered (with
// token) on them.
func startAllianceHandler(t *testing.T, cfg Config, token string, machines ...*machine) *Server {
	t.Helper()
	cfg.Dial = dialMachines(machines)
	cfg.Logger = slog.New(slog.DiscardHandler)
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(RegisterBody{URI: machines[0].uri, Alternates: []string{machines[1].uri}})
	req := httptest.NewRequest(http.MethodPut, "/Services/FlightsSearchReg/Register/star", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("register star: %d %s", rec.Code, rec.Body)
	}
	return s
}

// registrations is what the registry holds, as comparable text.
func registrations(r *Registry) []string {
	var out []string
	for _, reg := range r.All() {
		out = append(out, fmt.Sprintf("%+v", reg))
	}
	return out
}
