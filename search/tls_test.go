package search

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flightalliance/internal/logsink"
	"flightalliance/internal/pki"
	"flightalliance/soap"
)

// testPKI is a CA and the files of certificates it issued for 127.0.0.1.
type testPKI struct {
	ca   *pki.CA
	dir  string
	pool *x509.CertPool
}

func newTestPKI(t *testing.T) *testPKI {
	t.Helper()
	ca, err := pki.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	p := &testPKI{ca: ca, dir: t.TempDir(), pool: x509.NewCertPool()}
	p.pool.AddCert(ca.Cert)
	if err := os.WriteFile(filepath.Join(p.dir, "ca.crt"), ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// files issues a certificate for name on 127.0.0.1 and returns its files, with the CA.
func (p *testPKI) files(t *testing.T, name string) pki.Files {
	t.Helper()
	pair, err := p.ca.Issue(name, "127.0.0.1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	cert, key, err := pair.Write(p.dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return pki.Files{CertFile: cert, KeyFile: key, CAFile: filepath.Join(p.dir, "ca.crt")}
}

// serveOn runs s.Serve on a fresh 127.0.0.1 listener until the test ends; it returns the address.
func serveOn(t *testing.T, s *Server) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("Serve did not return 15s after its context was cancelled")
		}
	})
	return l.Addr().String()
}

// TestServeHTTPS: with TLS, the search server answers HTTPS to a client that knows the CA and
// presents no certificate; a plain-HTTP request to it gets a 400, never a 2xx or 3xx; a client
// that does not know the CA does not trust it.
func TestServeHTTPS(t *testing.T) {
	p := newTestPKI(t)
	serverTLS, err := p.files(t, "search").Server(false)
	if err != nil {
		t.Fatal(err)
	}
	logs := &logsink.Buffer{}
	s, err := New(Config{TLS: serverTLS, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, s)

	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: p.pool}}}
	resp, err := client.Get("https://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("HTTPS without a client certificate: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.TLS == nil {
		t.Errorf("HTTPS /healthz: %d, TLS %v", resp.StatusCode, resp.TLS != nil)
	}

	// Plain HTTP on the TLS port, as a raw client sends it.
	for _, path := range []string{"/healthz", "/Services/FlightsSearchReg/"} {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
		plain, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("plain HTTP %s to the TLS listener: no answer: %v", path, err)
		} else {
			plain.Body.Close()
			if plain.StatusCode != http.StatusBadRequest {
				t.Errorf("plain HTTP %s to the TLS listener: %d, want net/http's 400", path, plain.StatusCode)
			}
		}
		conn.Close()
	}
	// And through Go's client.
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("plain HTTP through net/http: %d", resp.StatusCode)
		}
	}
	// A registration in plain HTTP changes nothing either.
	if resp, err := http.DefaultClient.Do(mustRequest(t, http.MethodPut, "http://"+addr+"/Services/FlightsSearchReg/Register/star",
		regBody("http://127.0.0.1:9101/Services/SellerService"))); err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("plain HTTP registration: %d", resp.StatusCode)
		}
	}
	if n := len(s.Registry().All()); n != 0 {
		t.Errorf("%d registrations after a plain-HTTP registration", n)
	}
	stranger := &http.Client{Timeout: 10 * time.Second}
	if resp, err := stranger.Get("https://" + addr + "/healthz"); err == nil {
		resp.Body.Close()
		t.Error("a client without the CA trusted the server")
	}
	if !strings.Contains(logs.String(), "tls=true") || !strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("the log does not say TLS and open registrations:\n%s", logs.String())
	}
}

// httpsDelegate is a SellerService on HTTPS whose listener requires client certificates of the
// test CA, as an airline server started with --tls-ca.
func httpsDelegate(t *testing.T, p *testPKI) string {
	t.Helper()
	serverTLS, err := p.files(t, "m1").Server(true)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv := httptest.NewUnstartedServer(mux)
	srv.TLS = serverTLS
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected here
	srv.StartTLS()
	t.Cleanup(srv.Close)
	op := soap.Op(soap.OpGetTrips, func(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
		r := starTrips
		return &r, nil
	})
	mux.Handle(soap.SellerServicePath, soap.NewHandler(soap.SellerService(op), soap.HandlerOptions{Address: srv.URL}))
	return srv.URL + soap.SellerServicePath
}

// TestHTTPSDelegate: a search server given the CA and its own certificate (DelegateTLS, what
// --tls-ca makes) searches an HTTPS delegate that requires client certificates; one without
// the CA, or with the CA but no certificate of its own, cannot, and says the alliance is
// incomplete.
func TestHTTPSDelegate(t *testing.T) {
	p := newTestPKI(t)
	uri := httpsDelegate(t, p)
	if !strings.HasPrefix(uri, "https://127.0.0.1:") {
		t.Fatalf("delegate URI %s", uri)
	}
	withCA, err := p.files(t, "search").Client()
	if err != nil {
		t.Fatal(err)
	}
	caOnly, err := pki.Files{CAFile: filepath.Join(p.dir, "ca.crt")}.Client()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		tls  *tls.Config
		ok   bool
	}{
		{"CA and certificate", withCA, true},
		{"no CA", nil, false},
		{"CA, no certificate", caOnly, false},
	} {
		ts := startSearch(t, Config{DelegateTLS: c.tls, DelegateTimeout: 2 * time.Second})
		ts.register(t, "star", uri)
		a := ts.search(t, query)
		st, _ := status(a, "star")
		switch {
		case c.ok && (!a.Complete || len(a.Trips) != 2):
			t.Errorf("%s: %+v", c.name, a)
		case !c.ok && (a.Complete || st.Complete || st.Error == ""):
			t.Errorf("%s: the search succeeded or says nothing: %+v", c.name, a)
		case !c.ok:
			t.Logf("%s: %s", c.name, st.Error)
		}
	}
}

func mustRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}
