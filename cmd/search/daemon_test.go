package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flightalliance/internal/pki"
	"flightalliance/internal/probe"
)

// TestConfigFromEnvironmentAndFile: every flag may come from FA_SEARCH_<FLAG> or the --config
// file, the command line winning over the environment and the environment over the file; a
// variable or a name in the file that is no flag's, and a value refused, are refused naming the
// variable or the file's line, and the flag.
func TestConfigFromEnvironmentAndFile(t *testing.T) {
	dir := t.TempDir()
	conf := writeFile(t, dir, "search.conf", "# the search server\nregistration-ttl 10s\nmax-searches 64 # a comment\nlog-format json\n", 0o644)
	for _, tc := range []struct {
		name    string
		args    []string
		environ []string
		ttl     time.Duration
		max     int
		format  string
	}{
		{"defaults", nil, nil, 30 * time.Second, 256, "text"},
		{"file", []string{"--config", conf}, nil, 10 * time.Second, 64, "json"},
		{"file named by the environment", nil, []string{"FA_SEARCH_CONFIG=" + conf}, 10 * time.Second, 64, "json"},
		{"environment over file", []string{"--config", conf}, []string{"FA_SEARCH_REGISTRATION_TTL=20s", "FA_SEARCH_LOG_FORMAT=text"}, 20 * time.Second, 64, "text"},
		{"command line over both", []string{"--config", conf, "--registration-ttl", "5s"}, []string{"FA_SEARCH_REGISTRATION_TTL=20s", "FA_SEARCH_FLAGS=--x"},
			5 * time.Second, 64, "json"},
	} {
		c, err := parseConfig(tc.args, tc.environ, io.Discard)
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case c.server.RegistrationTTL != tc.ttl || c.server.MaxSearches != tc.max || string(c.format) != tc.format:
			t.Errorf("%s: registration TTL %v, max searches %d, log format %s; want %v, %d, %s",
				tc.name, c.server.RegistrationTTL, c.server.MaxSearches, c.format, tc.ttl, tc.max, tc.format)
		}
	}

	typo := writeFile(t, dir, "typo.conf", "max-searches 1\nmax-serches 2\n", 0o644)
	zero := writeFile(t, dir, "zero.conf", "max-searches 0\n", 0o644)
	for _, tc := range []struct {
		args    []string
		environ []string
		want    string
	}{
		{nil, []string{"FA_SEARCH_REGISTRATON_TTL=1s"}, "FA_SEARCH_REGISTRATON_TTL: no flag has this environment variable"},
		{nil, []string{"FA_SEARCH_REGISTRATION_TTL=soon"}, `FA_SEARCH_REGISTRATION_TTL: --registration-ttl: invalid value "soon"`},
		{nil, []string{"FA_SEARCH_REGISTRATION_TTL=0s"}, "--registration-ttl: 0s, want a positive duration (from FA_SEARCH_REGISTRATION_TTL)"},
		{nil, []string{"FA_SEARCH_LOG_FORMAT=xml"}, `--log-format: "xml", want json or text (from FA_SEARCH_LOG_FORMAT)`},
		{nil, []string{"FA_SEARCH_PROBE_LISTEN=8081"}, `--probe-listen: "8081" is not host:port`},
		{[]string{"--probe-listen", "127.0.0.1:8080"}, nil, "--probe-listen: 127.0.0.1:8080 is also --listen"},
		{nil, []string{"FA_SEARCH_TLS_KEY=k.pem"}, "--tls-cert: required with --tls-key"},
		{[]string{"--config", typo}, nil, typo + `:2: "max-serches" is not a flag`},
		{[]string{"--config", zero}, nil, "--max-searches: 0, want 1 or more (from " + zero + ":1)"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), tc.args, tc.environ, io.Discard, &stderr, inProcess)
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q with %q: exit %d, %q; want 1 saying %q", tc.args, tc.environ, code, stderr.String(), tc.want)
		}
	}
}

// secureFiles writes a CA, the search server's certificate and a trust file into dir.
func secureFiles(t *testing.T, dir string) (ca *pki.CA, cert, key, caFile, trust string) {
	t.Helper()
	ca, err := pki.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := ca.Issue("search", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if cert, key, err = pair.Write(dir, "search"); err != nil {
		t.Fatal(err)
	}
	caFile = writeFile(t, dir, "ca.crt", string(ca.CertPEM), 0o644)
	trust = writeFile(t, dir, "trust", "star "+pki.Token()+"\n", 0o600)
	return ca, cert, key, caFile, trust
}

// TestCheckConfig: --check-config prints the effective configuration and exits 0 without
// binding its port (another process holds it), or exits 2 naming the flag refused.
func TestCheckConfig(t *testing.T) {
	dir := t.TempDir()
	_, cert, key, caFile, trust := secureFiles(t, dir)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	environ := []string{"FA_SEARCH_LISTEN=" + taken.Addr().String(), "FA_SEARCH_TLS_CERT=" + cert, "FA_SEARCH_TLS_KEY=" + key,
		"FA_SEARCH_TLS_CA=" + caFile, "FA_SEARCH_TRUST=" + trust, "FA_SEARCH_PROBE_LISTEN=0.0.0.0:8081"}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--check-config", "--log-format", "json"}, environ, &stdout, &stderr, inProcess); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	token, _ := os.ReadFile(trust)
	for _, want := range []string{"listen " + taken.Addr().String(), "# FA_SEARCH_LISTEN", "log-format json", "# command line",
		"trust " + trust, "probe-listen 0.0.0.0:8081", "# registration-ttl 30s", "TLS true", "alliances [star], tokens not shown", "# configuration OK"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the printed configuration lacks %q:\n%s", want, stdout.String())
		}
	}
	if strings.Contains(stdout.String(), strings.Fields(string(token))[1]) {
		t.Errorf("a token is shown:\n%s", stdout.String())
	}

	open := writeFile(t, dir, "open", string(token), 0o644)
	for _, tc := range []struct {
		args    []string
		environ []string
		want    string
	}{
		{[]string{"--check-config", "--trust", open}, nil, "--trust"},
		{[]string{"--check-config", "--tls-cert", filepath.Join(dir, "none.crt"), "--tls-key", key}, nil, "--tls-cert"},
		{[]string{"--check-config"}, []string{"FA_SEARCH_NOPE=1"}, "FA_SEARCH_NOPE"},
		{[]string{"--nope"}, []string{"FA_SEARCH_CHECK_CONFIG=true"}, "-nope"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tc.args, tc.environ, &stdout, &stderr, inProcess); code != exitFailure || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q with %q: exit %d, %q; want 2 saying %q", tc.args, tc.environ, code, stderr.String(), tc.want)
		}
	}
}

// TestProbesOfASecureServer: with TLS, --probe-listen serves /livez and /readyz over plain HTTP
// (200: it serves, no alliance registered) and nothing else, while the main port answers HTTPS
// only; with --log-format json every line of the log is a JSON object.
func TestProbesOfASecureServer(t *testing.T) {
	ca, cert, key, caFile, trust := secureFiles(t, t.TempDir())
	r := start(t, "--trust", trust, "--tls-cert", cert, "--tls-key", key, "--tls-ca", caFile,
		"--probe-listen", "127.0.0.1:0", "--log-format", "json")
	r.waitLog(t, `"msg":"probes listening`)
	var probes string
	for _, line := range strings.Split(r.log(), "\n") {
		var rec struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &rec) == nil && strings.HasPrefix(rec.Msg, "probes listening") {
			probes = rec.Addr
		}
	}
	get := func(client *http.Client, url string) (int, string) {
		t.Helper()
		resp, err := client.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	plain := &http.Client{Timeout: 5 * time.Second}
	if code, body := get(plain, "http://"+probes+"/livez"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("/livez: %d %q", code, body)
	}
	code, body := get(plain, "http://"+probes+"/readyz")
	var a probe.Answer
	if err := json.Unmarshal([]byte(body), &a); err != nil || code != http.StatusOK || a != (probe.Answer{Ready: true, Reason: "serving"}) {
		t.Errorf("/readyz: %d %q (%v), want 200 serving", code, body, err)
	}
	for _, path := range []string{"/healthz", "/metrics", "/Services/FlightsSearchReg", "/"} {
		if code, _ := get(plain, "http://"+probes+path); code != http.StatusNotFound {
			t.Errorf("%s on the probe listener: %d, want 404", path, code)
		}
	}
	if code, _ := get(plain, "http://"+r.addr+"/healthz"); code != http.StatusBadRequest {
		t.Errorf("plain HTTP to the main port: %d, want 400", code)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	secure := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	if code, _ := get(secure, "https://"+r.addr+"/healthz"); code != http.StatusOK {
		t.Errorf("HTTPS /healthz on the main port: %d", code)
	}
	for _, line := range strings.Split(strings.TrimSpace(r.log()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("not a JSON object in the log: %s", line)
		}
	}
}
