package main

import (
	"io"
	"log"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flightalliance/internal/pki"
	"flightalliance/search"
)

// startHTTPSSearch runs a real search server on HTTPS (a certificate of a fresh CA for
// 127.0.0.1, no client certificate asked) with star registered; it returns its URL and the CA file.
func startHTTPSSearch(t *testing.T) (base, caFile string) {
	t.Helper()
	dir := t.TempDir()
	ca, err := pki.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := ca.Issue("search", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cert, key, err := pair.Write(dir, "search")
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	serverTLS, err := pki.Files{CertFile: cert, KeyFile: key}.Server(false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(search.Config{DelegateTimeout: 2 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	s.Registry().Register("star", startDelegate(t, star))
	srv := httptest.NewUnstartedServer(s.Handler())
	srv.TLS = serverTLS
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.URL, caFile
}

// TestCAFlag: flights talks to an https search server verified with --ca; without it the
// server is not trusted (exit 2, unreachable); a --ca that is no certificate, or --ca with an
// http:// server, is bad usage naming --ca.
func TestCAFlag(t *testing.T) {
	base, caFile := startHTTPSSearch(t)
	q := []string{"--from", "TLV", "--to", "JFK", "--date", "2026-12-01"}

	code, out, errOut := flights(append([]string{"search", "--server", base, "--ca", caFile}, q...)...)
	if code != exitOK || !strings.Contains(out, "LY001") {
		t.Errorf("search with --ca: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = flights("seats", "--server", base, "--ca", caFile, "--alliance", "oneworld", "--seller", "LY", "--flight", "LY001")
	if code != exitUsage || !strings.Contains(errOut, "404") {
		t.Errorf("seats of an unknown alliance with --ca: exit %d, %s (want the server's 404)", code, errOut)
	}
	code, _, errOut = flights(append([]string{"search", "--server", base}, q...)...)
	if code != exitUnreliable || !strings.Contains(errOut, "certificate") {
		t.Errorf("search without --ca: exit %d, %s", code, errOut)
	}
	notPEM := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		append([]string{"search", "--server", base, "--ca", notPEM}, q...),
		append([]string{"search", "--server", base, "--ca", filepath.Join(t.TempDir(), "missing")}, q...),
		append([]string{"search", "--server", "http://127.0.0.1:1", "--ca", caFile}, q...),
		{"booking", "--server", base, "--ca", notPEM, "star.k3v7q2m9x4b8n1c6d5f0g2h7jz"},
		{"seats", "--server", "http://127.0.0.1:1", "--ca", caFile, "--alliance", "star", "--seller", "LY", "--flight", "LY001"},
	} {
		if code, _, errOut := flights(args...); code != exitUsage || !strings.Contains(errOut, "--ca") {
			t.Errorf("flights %v: exit %d, %s; want 1 naming --ca", args, code, errOut)
		}
	}
}
