package main

import (
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	mux := http.NewServeMux()
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ready\n")) })
	mux.HandleFunc("/notready", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "not ready: no quorum", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/readyz", http.StatusFound) })
	mux.HandleFunc("/stuck", func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	plain := httptest.NewServer(mux)
	defer plain.Close()
	secure := httptest.NewUnstartedServer(mux)
	secure.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	secure.StartTLS()
	defer secure.Close()
	ca := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: secure.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := httptest.NewServer(mux)
	gone.Close()

	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"ready", []string{plain.URL + "/readyz"}, exitOK, []string{"200 OK ready"}},
		{"not ready", []string{plain.URL + "/notready"}, exitUnhealthy, []string{"503 Service Unavailable", "not ready: no quorum"}},
		{"a redirect is not followed", []string{plain.URL + "/moved"}, exitUnhealthy, []string{"302 Found"}},
		{"https with the CA", []string{secure.URL + "/readyz", "--cacert", ca}, exitOK, []string{"200 OK ready"}},
		{"https without the CA", []string{secure.URL + "/readyz"}, exitUnhealthy, []string{"certificate", "--cacert"}},
		{"nothing listens", []string{gone.URL + "/readyz"}, exitUnhealthy, []string{"connection refused"}},
		{"no answer in time", []string{plain.URL + "/stuck", "--timeout", "200ms"}, exitUnhealthy, []string{"Client.Timeout"}},
	} {
		start := time.Now()
		code, out := runCtl(append([]string{"probe"}, c.args...)...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, c.code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s: took %v", c.name, took)
		}
	}
}

func TestProbeUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "want URL"},
		{[]string{"127.0.0.1:9090/readyz"}, "is not an http:// or https:// URL"},
		{[]string{"http://127.0.0.1:1/readyz", "--timeout", "0s"}, "--timeout: 0s"},
		{[]string{"https://127.0.0.1:1/readyz", "--cacert", "/nonexistent/ca.crt"}, "--cacert:"},
	} {
		code, out := runCtl(append([]string{"probe"}, c.args...)...)
		if code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("probe %v: exit %d, want %d with %q:\n%s", c.args, code, exitUsage, c.want, out)
		}
	}
}
