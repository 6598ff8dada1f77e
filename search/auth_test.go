package search

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"flightalliance/internal/logsink"
	"flightalliance/internal/pki"
)

// trusted is a search server with a trust file naming star and sky, each with its own token.
type trusted struct {
	*testServer
	star, sky string // tokens
	logs      *logsink.Buffer
}

// testTrust is a trust file naming star and sky, each with a fresh token.
func testTrust(t testing.TB) (trust *Trust, star, sky string) {
	t.Helper()
	star, sky = pki.Token(), pki.Token()
	trust, err := ParseTrust(strings.NewReader("# alliances that may register\nstar "+star+"\n\nsky "+sky+"  # since 2026\n"), "trust")
	if err != nil {
		t.Fatal(err)
	}
	return trust, star, sky
}

func startTrusted(t *testing.T) *trusted {
	t.Helper()
	tr := &trusted{logs: &logsink.Buffer{}}
	trust, star, sky := testTrust(t)
	tr.star, tr.sky = star, sky
	log := slog.New(slog.NewTextHandler(tr.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	tr.testServer = startSearch(t, Config{Trust: trust, Logger: log})
	t.Cleanup(func() {
		for _, tok := range []string{tr.star, tr.sky} {
			if strings.Contains(tr.logs.String(), tok) {
				t.Errorf("a token was logged:\n%s", tr.logs.String())
			}
		}
	})
	return tr
}

// doAuth sends a request with the given Authorization header ("" for none) and returns the
// response (its body read) and the body.
func doAuth(t *testing.T, method, url, body, authorization string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
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
	return resp, b
}

func regBody(uri string) string {
	b, _ := json.Marshal(RegisterBody{URI: uri})
	return string(b)
}

// uris is the registrations as name=uri, sorted.
func (ts *testServer) uris(t *testing.T) []string {
	var out []string
	for _, r := range ts.list(t).Registrations {
		out = append(out, r.Name+"="+r.URI)
	}
	return out
}

// TestTrustRefusalsChangeNothing: with a trust file, every refusal of Register and Unregister —
// no header (401 with a Bearer challenge), another scheme, a wrong token, another alliance's
// token, an alliance the file does not name (403) — leaves the registrations as they were; the
// alliance's own token works. Unregistering by address with a token removes only the
// registrations of that token's alliance, although another alliance's delegate is at the same
// address.
func TestTrustRefusalsChangeNothing(t *testing.T) {
	ts := startTrusted(t)
	reg := ts.URL + "/Services/FlightsSearchReg/Register/"
	unreg := ts.URL + "/Services/FlightsSearchReg/Unregister"
	starURI, skyURI := "http://127.0.0.1:9101/Services/SellerService", "http://127.0.0.1:9201/Services/SellerService"
	bearer := func(tok string) string { return "Bearer " + tok }

	refuse := func(what, method, url, body, authorization string, want int, before []string) {
		t.Helper()
		resp, b := doAuth(t, method, url, body, authorization)
		var e ErrorBody
		if resp.StatusCode != want || json.Unmarshal(b, &e) != nil || e.Error == "" {
			t.Errorf("%s: %d %s, want %d with {\"error\": ...}", what, resp.StatusCode, b, want)
		}
		if want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", what, resp.Header.Get("WWW-Authenticate"))
		}
		if got := ts.uris(t); !slices.Equal(got, before) {
			t.Errorf("%s changed the registrations: %v, was %v", what, got, before)
		}
	}

	var none []string
	refuse("register without a header", http.MethodPut, reg+"star", regBody(starURI), "", http.StatusUnauthorized, none)
	refuse("register with Basic", http.MethodPut, reg+"star", regBody(starURI), "Basic "+ts.star, http.StatusUnauthorized, none)
	refuse("register with an empty Bearer", http.MethodPut, reg+"star", regBody(starURI), "Bearer ", http.StatusUnauthorized, none)
	refuse("register with a wrong token", http.MethodPut, reg+"star", regBody(starURI), bearer(pki.Token()), http.StatusForbidden, none)
	refuse("register with sky's token", http.MethodPut, reg+"star", regBody(starURI), bearer(ts.sky), http.StatusForbidden, none)
	refuse("register an alliance not trusted", http.MethodPut, reg+"oneworld", regBody(starURI), bearer(ts.star), http.StatusForbidden, none)
	refuse("register without a header and a bad body", http.MethodPut, reg+"star", "{", "", http.StatusUnauthorized, none)

	for _, c := range []struct{ name, uri, tok string }{{"star", starURI, ts.star}, {"sky", skyURI, ts.sky}} {
		if resp, b := doAuth(t, http.MethodPut, reg+c.name, regBody(c.uri), bearer(c.tok)); resp.StatusCode != http.StatusOK {
			t.Fatalf("register %s with its token: %d %s", c.name, resp.StatusCode, b)
		}
	}
	both := []string{"sky=" + skyURI, "star=" + starURI}
	if got := ts.uris(t); !slices.Equal(got, both) {
		t.Fatalf("registrations %v, want %v", got, both)
	}
	// A lowercase scheme is still Bearer (RFC 7235: schemes are case-insensitive).
	if resp, b := doAuth(t, http.MethodPut, reg+"star", regBody(starURI), "bearer "+ts.star); resp.StatusCode != http.StatusOK {
		t.Errorf("refresh with \"bearer\": %d %s", resp.StatusCode, b)
	}

	refuse("replace star with sky's token", http.MethodPut, reg+"star", regBody("http://10.6.6.6:1/x"), bearer(ts.sky), http.StatusForbidden, both)
	refuse("unregister star without a header", http.MethodPut, unreg+"?cluster=star", "", "", http.StatusUnauthorized, both)
	refuse("unregister star with sky's token", http.MethodPut, unreg+"?cluster=star", "", bearer(ts.sky), http.StatusForbidden, both)
	refuse("unregister star with a wrong token", http.MethodPut, unreg+"?cluster=star", "", bearer(pki.Token()), http.StatusForbidden, both)
	refuse("unregister an alliance not trusted", http.MethodPut, unreg+"?cluster=oneworld", "", bearer(ts.star), http.StatusForbidden, both)
	refuse("unregister by address without a header", http.MethodPut, unreg, "", "", http.StatusUnauthorized, both)
	refuse("unregister by address with a wrong token", http.MethodPut, unreg, "", bearer(pki.Token()), http.StatusForbidden, both)

	// By address (the test's client is 127.0.0.1, where both delegates are): star's token removes star only.
	resp, b := doAuth(t, http.MethodPut, unreg, "", bearer(ts.star))
	var res UnregisterResult
	if err := json.Unmarshal(b, &res); resp.StatusCode != http.StatusOK || err != nil || len(res.Removed) != 1 || res.Removed[0].Name != "star" {
		t.Fatalf("unregister by address with star's token: %d %s", resp.StatusCode, b)
	}
	if got := ts.uris(t); !slices.Equal(got, []string{"sky=" + skyURI}) {
		t.Errorf("after star unregistered by address: %v", got)
	}
	// By name, with the alliance's token.
	resp, b = doAuth(t, http.MethodPut, unreg+"?cluster=sky", "", bearer(ts.sky))
	if err := json.Unmarshal(b, &res); resp.StatusCode != http.StatusOK || err != nil || len(res.Removed) != 1 || res.Removed[0].Name != "sky" {
		t.Fatalf("unregister sky by name with its token: %d %s", resp.StatusCode, b)
	}
	if got := ts.uris(t); len(got) != 0 {
		t.Errorf("after both unregistered: %v", got)
	}
	if !strings.Contains(ts.logs.String(), "registration refused") {
		t.Errorf("refusals are not logged:\n%s", ts.logs.String())
	}
}

// TestTrustedRoutesMatchTheOpenAPIDocument checks 401, 403 and the authorized answers of a
// server with a trust file against the document (its bearer security scheme included).
func TestTrustedRoutesMatchTheOpenAPIDocument(t *testing.T) {
	ts := startTrusted(t)
	check := openAPIChecker(t, ts.URL)
	body := regBody("http://127.0.0.1:9101/Services/SellerService")
	check(http.MethodPut, "/Services/FlightsSearchReg/Register/star", body, 401)
	check(http.MethodPut, "/Services/FlightsSearchReg/Register/star", body, 403, "Authorization", "Bearer "+ts.sky)
	check(http.MethodPut, "/Services/FlightsSearchReg/Register/star", body, 200, "Authorization", "Bearer "+ts.star)
	check(http.MethodPut, "/Services/FlightsSearchReg/Register/star", `{"uri":"http://x/`+strings.Repeat("a", 70000)+`"}`, 413, "Authorization", "Bearer "+ts.star)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister?cluster=star", "", 401)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister?cluster=star", "", 403, "Authorization", "Bearer "+ts.sky)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister", "", 403, "Authorization", "Bearer nope")
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister?cluster=star", "", 200, "Authorization", "Bearer "+ts.star)
	check(http.MethodPut, "/Services/FlightsSearchReg/Unregister", "", 200, "Authorization", "Bearer "+ts.sky)
}
