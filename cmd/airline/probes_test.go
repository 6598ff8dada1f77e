package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"flightalliance/internal/freeport"
	"flightalliance/internal/pki"
	"flightalliance/internal/probe"
)

// secureMachine is one machine of a secure two-machine alliance: its addresses and the
// arguments that start it.
type secureMachine struct {
	name                         string
	listen, peer, client, probes string
	args                         []string
	proc                         *process
}

// secureAlliance makes the files of a secure alliance star of m1 and m2 — a CA, a certificate
// each, the alliance's token, a seller each — and the machines' command lines, with TLS, the
// token, --probe-listen and --log-format json.
func secureAlliance(t *testing.T) (ca *pki.CA, m1, m2 *secureMachine) {
	t.Helper()
	dir := t.TempDir()
	ca, err := pki.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	caFile, token := filepath.Join(dir, "ca.crt"), filepath.Join(dir, "token")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(token, []byte(pki.Token()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addrs, err := freeport.Addrs(8, nil)
	if err != nil {
		t.Fatal(err)
	}
	m1 = &secureMachine{name: "m1", listen: addrs[0], peer: addrs[1], client: addrs[2], probes: addrs[3]}
	m2 = &secureMachine{name: "m2", listen: addrs[4], peer: addrs[5], client: addrs[6], probes: addrs[7]}
	peers := "m1=https://" + m1.peer + ",m2=https://" + m2.peer
	for i, m := range []*secureMachine{m1, m2} {
		pair, err := ca.Issue(m.name, "127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		cert, key, err := pair.Write(dir, m.name)
		if err != nil {
			t.Fatal(err)
		}
		code := []string{"LY", "UA"}[i]
		seller := filepath.Join(dir, code+".csv")
		csv := "flight,seller,src,dst,departure,arrival,price,seats\n" + code + "1," + code + ",TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T20:00:00Z,100.00,9\n"
		if err := os.WriteFile(seller, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
		m.args = []string{"--name", m.name, "--alliance", "star", "--listen", m.listen, "--peer-listen", m.peer, "--client-listen", m.client,
			"--peers", peers, "--data-dir", filepath.Join(dir, m.name), "--seller", code + "=" + seller,
			"--tls-cert", cert, "--tls-key", key, "--tls-ca", caFile, "--token-file", token,
			"--probe-listen", m.probes, "--log-format", "json"}
	}
	return ca, m1, m2
}

// readyz asks a machine's GET /readyz over plain HTTP, without a certificate.
func readyz(addr string) (int, probe.Answer, error) {
	client := &http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get("http://" + addr + "/readyz")
	if err != nil {
		return 0, probe.Answer{}, err
	}
	defer resp.Body.Close()
	var a probe.Answer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		return resp.StatusCode, a, err
	}
	return resp.StatusCode, a, nil
}

// waitReady waits (limit at most) until the machine's /readyz answers code with a reason that
// says says, and returns that reason.
func waitReady(t *testing.T, m *secureMachine, code int, says string, limit time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(limit)
	var last string
	for {
		got, a, err := readyz(m.probes)
		if err == nil && got == code && strings.Contains(a.Reason, says) {
			return a.Reason
		}
		last = a.Reason
		if err != nil {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s /readyz never answered %d saying %q within %v (last: %d %q):\n%s", m.name, code, says, limit, got, last, m.proc.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestProbesOfASecureMachine runs a secure alliance of two machines (TLS with --tls-ca, a token)
// as real processes with --probe-listen: /livez and /readyz answer plain HTTP without a
// certificate while the main port refuses a client without one; /readyz is 503 while m1 waits
// for its quorum, 200 once it is registered, 503 once its session is lost (m2 stopped: no
// quorum), 200 again when m2 comes back, and 503 "leaving" from SIGTERM until it exits. Its log,
// --log-format json, is JSON on every line, etcd's included.
func TestProbesOfASecureMachine(t *testing.T) {
	ca, m1, m2 := secureAlliance(t)
	m1.proc = startProcess(t, "m1", m1.args...)

	// Live at once; not ready while its etcd member waits for m2 to form a quorum.
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + m1.probes + "/livez")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
				t.Fatalf("/livez: %d %q", resp.StatusCode, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/livez never answered: %v\n%s", err, m1.proc.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code, a, err := readyz(m1.probes); err != nil || code != http.StatusServiceUnavailable || a.Ready || !strings.Contains(a.Reason, "starting") {
		t.Errorf("/readyz of m1 alone: %d %+v %v, want 503 starting", code, a, err)
	}
	if resp, err := http.Get("http://" + m1.probes + "/healthz"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /healthz on the probe listener: %v %v, want 404", resp, err)
	} else {
		resp.Body.Close()
	}

	// The main port: a client that trusts the CA but has no certificate is refused; one with a
	// certificate is answered.
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	noCert := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	if resp, err := noCert.Get("https://" + m1.listen + "/healthz"); err == nil {
		resp.Body.Close()
		t.Errorf("the main port answered a client without a certificate: %s", resp.Status)
	}
	tester, err := ca.Issue("tester", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.X509KeyPair(tester.CertPEM, tester.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	withCert := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}}}}
	if resp, err := withCert.Get("https://" + m1.listen + "/healthz"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("the main port, with a certificate: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	// With m2, both are registered: ready.
	m2.proc = startProcess(t, "m2", m2.args...)
	waitReady(t, m1, http.StatusOK, "registered in alliance star", 60*time.Second)
	waitReady(t, m2, http.StatusOK, "registered in alliance star", 60*time.Second)

	// m2 stopped: m1 has no quorum and its session ends with its lease.
	m2.proc.signal(t, syscall.SIGSTOP)
	reason := waitReady(t, m1, http.StatusServiceUnavailable, "session lost", 30*time.Second)
	if !strings.Contains(reason, "no etcd quorum") {
		t.Errorf("m1 without m2: %q, want it to say there is no quorum", reason)
	}
	m2.proc.signal(t, syscall.SIGCONT)
	waitReady(t, m1, http.StatusOK, "registered in alliance star", 60*time.Second)

	// SIGTERM: m1 leaves, and is not ready from then until it exits.
	m1.proc.signal(t, syscall.SIGTERM)
	sawLeaving := false
	for done := false; !done; {
		code, a, err := readyz(m1.probes)
		switch {
		case err != nil && !errors.Is(err, io.EOF) && code == 0:
			done = true // the probe listener closed: the process is exiting
		case code == http.StatusServiceUnavailable && a.Reason == "leaving the alliance":
			sawLeaving = true
		case code == http.StatusOK && sawLeaving:
			t.Fatalf("/readyz ready again after leaving began: %+v", a)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := m1.proc.wait(t, 60*time.Second); err != nil {
		t.Errorf("m1 after SIGTERM: %v\n%s", err, m1.proc.log())
	}
	if !sawLeaving {
		t.Errorf("/readyz never said leaving between SIGTERM and the exit:\n%s", m1.proc.log())
	}

	// Every line of m1's stderr is a JSON object: its own records, etcd's (component etcd),
	// and net/http's (the refused handshake).
	etcdLines, handshake := 0, false
	for _, line := range strings.Split(strings.TrimSpace(m1.proc.log()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("not a JSON object on m1's stderr: %s", line)
			continue
		}
		if rec["time"] == nil || rec["level"] == nil || rec["msg"] == nil {
			t.Errorf("a record without time, level or msg: %s", line)
		}
		if rec["component"] == "etcd" {
			etcdLines++
		}
		handshake = handshake || strings.Contains(line, "TLS handshake error")
	}
	if etcdLines == 0 {
		t.Errorf("no etcd record in m1's log (it warns while it waits for its quorum):\n%s", m1.proc.log())
	}
	if !handshake {
		t.Errorf("the refused handshake is not in m1's log")
	}
	m2.proc.signal(t, syscall.SIGTERM)
	if err := m2.proc.wait(t, 60*time.Second); err != nil {
		t.Errorf("m2 after SIGTERM: %v", err)
	}
}
