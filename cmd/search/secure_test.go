package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/internal/pki"
)

// writeFile writes content to dir/name with mode and returns the path.
func writeFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, mode); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestBadSecurityFlags: a trust file that others may read, a malformed one (named file:line),
// a missing one, and half a TLS configuration refuse to start with exit 1, naming the flag.
func TestBadSecurityFlags(t *testing.T) {
	dir := t.TempDir()
	token := pki.Token()
	open := writeFile(t, dir, "open", "star "+token+"\n", 0o644)
	bad := writeFile(t, dir, "bad", "# alliances\nstar "+token+"\nsky\n", 0o600)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--trust", open}, []string{"--trust", "chmod 600"}},
		{[]string{"--trust", bad}, []string{"--trust", bad + ":3:"}},
		{[]string{"--trust", filepath.Join(dir, "missing")}, []string{"--trust", "missing"}},
		{[]string{"--tls-key", "k.pem"}, []string{"--tls-cert"}},
		{[]string{"--tls-cert", "c.pem"}, []string{"--tls-key"}},
		{[]string{"--tls-ca", "ca.pem"}, []string{"--tls-ca"}},
		{[]string{"--tls-cert", filepath.Join(dir, "none.crt"), "--tls-key", filepath.Join(dir, "none.key")}, []string{"--tls-cert"}},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), c.args, nil, io.Discard, &stderr, inProcess)
		if code != exitUsage {
			t.Errorf("search %v: exit %d, want 1: %s", c.args, code, stderr.String())
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("search %v: %q does not say %q", c.args, stderr.String(), w)
			}
		}
		if strings.Contains(stderr.String(), token) {
			t.Errorf("search %v: the token is shown: %s", c.args, stderr.String())
		}
	}
}

// running is the command run in-process until the test ends.
type running struct {
	addr string
	mu   sync.Mutex
	logs bytes.Buffer
}

func (r *running) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

// waitLog waits (10s at most) until the log says s.
func (r *running) waitLog(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.log(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q:\n%s", s, r.log())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// start runs the command with args (plus a free port) and waits until it serves. At the end of
// the test it cancels the run and expects exit 0.
func start(t *testing.T, args ...string) *running {
	t.Helper()
	r := &running{}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, append([]string{"--listen", "127.0.0.1:0"}, args...), nil, io.Discard, pw, inProcess)
		pw.Close()
	}()
	addr := make(chan string, 1)
	eof := make(chan struct{})
	go func() {
		defer close(eof)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			r.mu.Lock()
			r.logs.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
			if a, ok := listeningAddr(sc.Text()); ok {
				addr <- a
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-exit:
			<-eof
			if code != exitOK {
				t.Errorf("exit %d after cancel:\n%s", code, r.log())
			}
		case <-time.After(20 * time.Second):
			t.Error("no exit 20s after cancel")
		}
	})
	select {
	case r.addr = <-addr:
	case code := <-exit:
		exit <- exitOK // for the cleanup, which must not wait for an exit already seen
		t.Fatalf("exit %d before serving:\n%s", code, r.log())
	case <-time.After(20 * time.Second):
		t.Fatalf("the server never said where it listens:\n%s", r.log())
	}
	return r
}

// TestOpenServerWarns: without --trust the log says at start, as a warning, that registrations
// are open.
func TestOpenServerWarns(t *testing.T) {
	r := start(t)
	r.waitLog(t, "registrations are open")
	if l := r.log(); !strings.Contains(l, `level=WARN msg="registrations are open`) {
		t.Errorf("the warning about open registrations is not a WARN:\n%s", l)
	}
}

// TestTrustAndTLS runs the command with --trust and TLS: HTTPS answers a client that knows the
// CA and has no certificate, plain HTTP gets 400, a registration needs star's token (401
// without, 403 with sky's), and no token is ever logged.
func TestTrustAndTLS(t *testing.T) {
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
	caFile := writeFile(t, dir, "ca.crt", string(ca.CertPEM), 0o644)
	star, sky := pki.Token(), pki.Token()
	trust := writeFile(t, dir, "trust", "star "+star+"\nsky "+sky+"\n", 0o600)
	r := start(t, "--trust", trust, "--tls-cert", cert, "--tls-key", key, "--tls-ca", caFile, "--log-level", "debug")
	r.waitLog(t, "registrations need the alliance's token")

	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	base := "https://" + r.addr
	put := func(path, body, token string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPut, base+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	body := `{"uri":"https://127.0.0.1:9101/Services/SellerService"}`
	for _, c := range []struct {
		path, token string
		want        int
	}{
		{"/Services/FlightsSearchReg/Register/star", "", http.StatusUnauthorized},
		{"/Services/FlightsSearchReg/Register/star", sky, http.StatusForbidden},
		{"/Services/FlightsSearchReg/Register/star", star, http.StatusOK},
		{"/Services/FlightsSearchReg/Unregister?cluster=star", sky, http.StatusForbidden},
		{"/Services/FlightsSearchReg/Unregister?cluster=star", star, http.StatusOK},
	} {
		if got := put(c.path, body, c.token); got != c.want {
			t.Errorf("PUT %s: %d, want %d", c.path, got, c.want)
		}
	}
	if resp, err := http.Get("http://" + r.addr + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("plain HTTP to the TLS listener: %d, want 400", resp.StatusCode)
		}
	}
	l := r.log()
	if strings.Contains(l, star) || strings.Contains(l, sky) {
		t.Errorf("a token was logged:\n%s", l)
	}
	if strings.Contains(l, "registrations are open") || !strings.Contains(l, "tls=true") {
		t.Errorf("the log does not say trust and TLS:\n%s", l)
	}
}
