package probe

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// TestProbesAnswerTwoPathsAndNothingElse: /livez says ok, /readyz says the server's readiness
// (200 or 503, with its reason), and any other path or method is 404.
func TestProbesAnswerTwoPathsAndNothingElse(t *testing.T) {
	var ready atomic.Bool
	s, err := Listen("127.0.0.1:0", func(context.Context) (bool, string) {
		if ready.Load() {
			return true, "serving"
		}
		return false, "starting"
	}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	base := "http://" + s.Addr().String()
	call := func(method, path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	readyz := func() (int, Answer) {
		t.Helper()
		code, body := call(http.MethodGet, "/readyz")
		var a Answer
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			t.Fatalf("/readyz: %q is not the JSON answer: %v", body, err)
		}
		return code, a
	}

	if code, body := call(http.MethodGet, "/livez"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("/livez: %d %q", code, body)
	}
	if code, a := readyz(); code != http.StatusServiceUnavailable || a != (Answer{Ready: false, Reason: "starting"}) {
		t.Errorf("/readyz while starting: %d %+v", code, a)
	}
	ready.Store(true)
	if code, a := readyz(); code != http.StatusOK || a != (Answer{Ready: true, Reason: "serving"}) {
		t.Errorf("/readyz once serving: %d %+v", code, a)
	}
	if code, body := call(http.MethodHead, "/readyz"); code != http.StatusOK || body != "" {
		t.Errorf("HEAD /readyz: %d %q", code, body)
	}
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/"}, {http.MethodGet, "/healthz"}, {http.MethodGet, "/status"}, {http.MethodGet, "/metrics"},
		{http.MethodGet, "/livez/x"}, {http.MethodPost, "/readyz"}, {http.MethodDelete, "/livez"},
	} {
		if code, body := call(c.method, c.path); code != http.StatusNotFound || strings.Contains(body, "ready") {
			t.Errorf("%s %s: %d %q, want 404", c.method, c.path, code, body)
		}
	}
}
