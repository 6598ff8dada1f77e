package main

import (
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"flightalliance/internal/pki"
)

// TestSIGHUPReadsTheTrustFileAgain changes an alliance's token while the server runs: its new
// token added on a second line and SIGHUP (either token registers), a malformed file and SIGHUP
// (refused, logged; the trust in force stays), the old token's line removed and SIGHUP (the
// old token refused). No token is ever logged.
func TestSIGHUPReadsTheTrustFileAgain(t *testing.T) {
	dir := t.TempDir()
	old, renewed := pki.Token(), pki.Token()
	trust := writeFile(t, dir, "trust", "star "+old+"\n", 0o600)
	r := start(t, "--trust", trust)
	r.waitLog(t, "registrations need the alliance's token")

	register := func(token string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPut, "http://"+r.addr+"/Services/FlightsSearchReg/Register/star",
			strings.NewReader(`{"uri":"http://127.0.0.1:9101/Services/SellerService"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	expect := func(when string, oldWant, renewedWant int) {
		t.Helper()
		if got := register(old); got != oldWant {
			t.Errorf("%s: star with its old token: %d, want %d", when, got, oldWant)
		}
		if got := register(renewed); got != renewedWant {
			t.Errorf("%s: star with its new token: %d, want %d", when, got, renewedWant)
		}
	}
	hangup := func(content, logSays string, times int) {
		t.Helper()
		writeFile(t, dir, "trust", content, 0o600)
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		r.waitLogTimes(t, logSays, times)
	}

	expect("at start", http.StatusOK, http.StatusForbidden)
	hangup("star "+old+"\nstar "+renewed+" # the new one\n", "SIGHUP: trust file read again and in force", 1)
	expect("with both lines", http.StatusOK, http.StatusOK)
	hangup("star\n", "SIGHUP: the trust file was not read again; the one in force stays", 1)
	expect("after a malformed file", http.StatusOK, http.StatusOK)
	if l := r.log(); !strings.Contains(l, "trust:1: want") {
		t.Errorf("the refusal does not name file:line:\n%s", l)
	}
	hangup("star "+renewed+"\n", "SIGHUP: trust file read again and in force", 2)
	expect("with the new line alone", http.StatusForbidden, http.StatusOK)
	if l := r.log(); strings.Contains(l, old) || strings.Contains(l, renewed) {
		t.Errorf("a token was logged:\n%s", l)
	}
}

// waitLogTimes waits (10s at most) until the log says s n times.
func (r *running) waitLogTimes(t *testing.T, s string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(r.log(), s) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q %d times:\n%s", s, n, r.log())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
