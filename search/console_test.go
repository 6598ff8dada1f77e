package search

import (
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"flightalliance/search/console"
)

func TestConsolePageIsServedAtRoot(t *testing.T) {
	ts := startSearch(t, Config{})
	for _, path := range []string{"/", "/?src=TLV&dst=JFK&date=2026-12-01"} {
		resp := consoleGet(t, ts.URL+path, nil)
		if resp.code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.code, resp.body)
		}
		if ct := resp.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %s: Content-Type %q", path, ct)
		}
		csp := resp.header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "style-src 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: Content-Security-Policy %q lacks %q", path, csp, want)
			}
		}
		if !strings.Contains(resp.body, `<script src="/console/app.js"`) || !strings.Contains(resp.body, `href="/console/style.css"`) {
			t.Errorf("GET %s: the page does not load its script and style sheet:\n%s", path, resp.body)
		}
	}
}

func TestConsoleAssetsHaveTheirTypesAndRevalidate(t *testing.T) {
	ts := startSearch(t, Config{})
	for file, ct := range map[string]string{"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"} {
		resp := consoleGet(t, ts.URL+"/console/"+file, nil)
		if resp.code != http.StatusOK || resp.header.Get("Content-Type") != ct {
			t.Errorf("GET /console/%s: %d %q, want 200 %q", file, resp.code, resp.header.Get("Content-Type"), ct)
		}
		a, _ := console.Lookup(file)
		if resp.body != string(a.Body) {
			t.Errorf("GET /console/%s is not the embedded file", file)
		}
		etag := resp.header.Get("ETag")
		again := consoleGet(t, ts.URL+"/console/"+file, map[string]string{"If-None-Match": etag})
		if etag == "" || again.code != http.StatusNotModified {
			t.Errorf("GET /console/%s with If-None-Match %q: %d, want 304", file, etag, again.code)
		}
	}
	for _, path := range []string{"/console/nope.js", "/console/index.html", "/console/"} {
		if resp := consoleGet(t, ts.URL+path, nil); resp.code != http.StatusNotFound || !strings.Contains(resp.body, `"error"`) {
			t.Errorf("GET %s: %d %s, want a JSON 404", path, resp.code, resp.body)
		}
	}
}

// TestConsoleFetchesNothingOutsideTheServer reads the embedded files as a reviewer would: every
// URL they name is a path on the search server (or the empty data: icon), and nothing opens
// another kind of channel.
func TestConsoleFetchesNothingOutsideTheServer(t *testing.T) {
	names := console.Names()
	slices.Sort(names)
	if want := []string{"app.js", "index.html", "style.css"}; !slices.Equal(names, want) {
		t.Fatalf("embedded files %v, want %v", names, want)
	}
	forbidden := []string{"://", "@import", "url(", "WebSocket", "EventSource", "importScripts", "sendBeacon",
		"import(", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("}
	attr := regexp.MustCompile(`(?i)\b(?:src|href|action)\s*=\s*["']([^"']*)["']`)
	fetchArg := regexp.MustCompile(`fetch\(\s*([^,)]*)`)
	for _, name := range names {
		a, _ := console.Lookup(name)
		text := string(a.Body)
		for _, f := range forbidden {
			if strings.Contains(text, f) {
				t.Errorf("%s contains %q", name, f)
			}
		}
		for _, m := range attr.FindAllStringSubmatch(text, -1) {
			u := m[1]
			if (!strings.HasPrefix(u, "/") || strings.HasPrefix(u, "//")) && u != "data:," && !strings.HasPrefix(u, "#") {
				t.Errorf("%s names %q, not a path on the search server", name, m[0])
			}
		}
		for _, m := range fetchArg.FindAllStringSubmatch(text, -1) {
			arg := strings.TrimSpace(m[1])
			if !strings.HasPrefix(arg, "'/") && !strings.HasPrefix(arg, "API") && arg != "path" {
				t.Errorf("%s fetches %s: not a path of the search server", name, arg)
			}
		}
	}
}

// TestConsoleFormIsLabelled checks the promise of docs/api.md ("The web console") about the form: labels beginning with
// "From", "To" and "Date", a button named "Search", and a label for every input and select.
func TestConsoleFormIsLabelled(t *testing.T) {
	page := string(console.Page().Body)
	labels := map[string]string{}
	for _, m := range regexp.MustCompile(`<label for="([^"]+)">([^<]*)</label>`).FindAllStringSubmatch(page, -1) {
		labels[m[1]] = m[2]
	}
	for id, prefix := range map[string]string{"src": "From", "dst": "To", "date": "Date"} {
		if !strings.HasPrefix(labels[id], prefix) {
			t.Errorf("the label of #%s is %q, want it to begin with %q", id, labels[id], prefix)
		}
	}
	controls := regexp.MustCompile(`<(?:input|select)\b[^>]*\bid="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(controls) < 10 {
		t.Fatalf("found %d inputs and selects", len(controls))
	}
	for _, m := range controls {
		if labels[m[1]] == "" {
			t.Errorf("#%s has no <label for>", m[1])
		}
	}
	if !regexp.MustCompile(`<button type="submit"[^>]*>Search</button>`).MatchString(page) {
		t.Error(`no submit button named "Search"`)
	}
}

type consoleAnswer struct {
	code   int
	header http.Header
	body   string
}

func consoleGet(t testing.TB, url string, header map[string]string) consoleAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
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
	return consoleAnswer{code: resp.StatusCode, header: resp.Header, body: string(b)}
}
