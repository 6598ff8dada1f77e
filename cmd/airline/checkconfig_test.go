package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"flightalliance/internal/pki"
)

// podFiles are the files a Kubernetes pod of an airline server mounts: its certificate, key and
// CA, the alliance's token, a seller file and a config file; and a free port taken by someone
// else, to see that --check-config binds nothing.
type podFiles struct {
	dir, cert, key, ca, token, seller, conf string
	taken                                   net.Listener
}

func newPodFiles(t *testing.T) podFiles {
	t.Helper()
	dir := t.TempDir()
	ca, err := pki.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := ca.Issue("m1", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cert, key, err := pair.Write(dir, "m1")
	if err != nil {
		t.Fatal(err)
	}
	p := podFiles{dir: dir, cert: cert, key: key, ca: filepath.Join(dir, "ca.crt"), token: filepath.Join(dir, "token"),
		seller: filepath.Join(dir, "LY.csv")}
	for file, content := range map[string]string{
		p.ca:     string(ca.CertPEM),
		p.token:  pki.Token() + "\n",
		p.seller: "flight,seller,src,dst,departure,arrival,price,seats\nLY1,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T20:00:00Z,100.00,9\n",
	} {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p.conf = writeConf(t, dir, "alliance star", "seller LY="+p.seller, "log-format json", "peer-listen 0.0.0.0:2381")
	if p.taken, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.taken.Close() })
	return p
}

// environ is the pod's environment: the machine's name from its pod's, TLS and token files
// from mounted secrets, its peers from a StatefulSet's DNS names; its --listen and
// --probe-listen are on a port another process holds.
func (p podFiles) environ(more ...string) []string {
	return append([]string{
		"FA_AIRLINE_NAME=m1",
		"FA_AIRLINE_PEERS=m1=https://m1.airline:2381,m2=https://m2.airline:2381,m3=https://m3.airline:2381",
		"FA_AIRLINE_PEER_ADVERTISE=m1.airline:2381",
		"FA_AIRLINE_LISTEN=" + p.taken.Addr().String(),
		"FA_AIRLINE_PROBE_LISTEN=0.0.0.0:8102",
		"FA_AIRLINE_DATA_DIR=" + filepath.Join(p.dir, "data"),
		"FA_AIRLINE_TLS_CERT=" + p.cert, "FA_AIRLINE_TLS_KEY=" + p.key, "FA_AIRLINE_TLS_CA=" + p.ca,
		"FA_AIRLINE_TOKEN_FILE=" + p.token,
		"FA_AIRLINE_SEARCH=https://search.default.svc:8080",
		"HOSTNAME=m1", "PATH=/usr/bin",
	}, more...)
}

// TestCheckConfigOfAPod: a pod's args and environment, checked: exit 0, the effective
// configuration printed with where each flag came from, no token shown, no port bound, no data
// dir made.
func TestCheckConfigOfAPod(t *testing.T) {
	p := newPodFiles(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"--config", p.conf, "--check-config"}, p.environ(), &stdout, &stderr, inProcess)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"name m1", "# FA_AIRLINE_NAME",
		"alliance star", "# " + p.conf + ":1",
		"seller LY=" + p.seller,
		"peer-listen 0.0.0.0:2381",
		"tls-ca " + p.ca,
		"# cache-mib 1024", "# default",
		"advertised URL https://" + p.taken.Addr().String(),
		"etcd peer URL https://m1.airline:2381",
		"token file " + p.token + ": 1 token(s) read, not shown",
		"# configuration OK",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the printed configuration lacks %q:\n%s", want, out)
		}
	}
	token, _ := os.ReadFile(p.token)
	if strings.Contains(out+stderr.String(), strings.TrimSpace(string(token))) {
		t.Errorf("the token is shown:\n%s", out)
	}
	if strings.Contains(out, "check-config") {
		t.Errorf("--check-config is printed (read back as a config file it would never start):\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "data")); !os.IsNotExist(err) {
		t.Errorf("the data dir was touched: %v", err)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestCheckConfigRefusesNamingTheFlag: a refused configuration exits 2, the error naming the
// flag and, when the value came from it, the variable or the file's line.
func TestCheckConfigRefusesNamingTheFlag(t *testing.T) {
	p := newPodFiles(t)
	badCSV := filepath.Join(p.dir, "UA.csv")
	if err := os.WriteFile(badCSV, []byte("flight,seller,src,dst,departure,arrival,price,seats\nUA1,UA,TLV,TLV,2026-12-01T08:00:00Z,2026-12-01T09:00:00Z,1.00,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		environ []string
		want    []string
	}{
		{"a seller file refused", []string{"--check-config", "--seller", "UA=" + badCSV}, p.environ("FA_AIRLINE_ALLIANCE=star"),
			[]string{"--seller UA", "UA.csv:2"}},
		{"a seller file missing, from the environment", []string{"--check-config"}, p.environ("FA_AIRLINE_ALLIANCE=star", "FA_AIRLINE_SELLER=LY="+filepath.Join(p.dir, "none.csv")),
			[]string{"--seller LY", "none.csv", "(from FA_AIRLINE_SELLER)"}},
		{"a certificate missing", []string{"--config", p.conf, "--check-config", "--tls-cert", filepath.Join(p.dir, "none.crt")}, p.environ(),
			[]string{"--tls-cert", "none.crt"}},
		{"a CA that is no certificate", []string{"--config", p.conf, "--check-config"}, p.environ("FA_AIRLINE_TLS_CA=" + p.token),
			[]string{"--tls-ca"}},
		{"a typo in the environment", []string{"--config", p.conf, "--check-config"}, p.environ("FA_AIRLINE_TLS_CERTS=x"),
			[]string{"FA_AIRLINE_TLS_CERTS: no flag"}},
		{"a typo on the command line", []string{"--nope", "--check-config"}, p.environ(), []string{"-nope"}},
		{"asked for by the environment", []string{"--nope"}, p.environ("FA_AIRLINE_CHECK_CONFIG=true"), []string{"-nope"}},
		{"neither --peers nor --join", []string{"--config", p.conf, "--check-config", "--peers", ""}, p.environ(),
			[]string{"--peers", `does not list member "m1"`}},
		{"a bad alliance name", []string{"--check-config", "--alliance", "no spaces"}, p.environ(), []string{"--alliance"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, tc.environ, &stdout, &stderr, inProcess); code != exitBadConfig {
				t.Fatalf("exit %d, want %d: %s", code, exitBadConfig, stderr.String())
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr %q does not say %q", stderr.String(), want)
				}
			}
			if strings.Contains(stdout.String(), "configuration OK") {
				t.Errorf("stdout says OK: %s", stdout.String())
			}
		})
	}
}
