package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"flightalliance/internal/pki"
)

// tlsHandshake serves one connection with the certificate of server's files (requiring a
// client certificate of its CA) and dials it as the client files would, asking for serverName;
// it returns the client's error, including a refusal the server sends after the handshake.
func tlsHandshake(t *testing.T, server, client pki.Files, serverName string) error {
	t.Helper()
	scfg, err := server.Server(true)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", scfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if c.(*tls.Conn).Handshake() == nil {
			_, _ = c.Write([]byte{1})
		}
	}()
	ccfg, err := client.Client()
	if err != nil {
		t.Fatal(err)
	}
	ccfg.ServerName = serverName
	c, err := tls.Dial("tcp", ln.Addr().String(), ccfg)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Read(make([]byte, 1)) // TLS 1.3: a refused client certificate shows here
	return err
}

// kitFiles is the files of one host's directory, with their modes.
func kitFiles(t *testing.T, dir string) map[string]os.FileMode {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]os.FileMode{}
	for _, e := range entries {
		out[e.Name()] = mode(t, filepath.Join(dir, e.Name()))
	}
	return out
}

func TestKeysPerHostCertificatesAndWhatToShip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	k := keyDir(dir)
	hostsOf := map[string][]string{
		"m1":       {"m1", "m1.star.svc", "10.0.0.5"},
		"m2":       {"m2", "m2.star.svc", "10.0.0.6"},
		searchName: {"search", "localhost", "127.0.0.1"},
		"m3":       defaultHosts, // no --host: --hosts
		ctlName:    defaultHosts,
	}
	args := []string{"keys", "--out", dir}
	for _, n := range []string{"m1", "m2", searchName} {
		args = append(args, "--host", n+"="+strings.Join(hostsOf[n], ","))
	}
	code, out := runCtl(args...)
	if code != exitOK {
		t.Fatalf("keys: exit %d\n%s", code, out)
	}

	// Each host's directory holds exactly its files, the same as the flat ones, with their modes.
	want := map[string][]string{
		"m1": {"ca.crt", "m1.crt", "m1.key", "star.token"}, "m2": {"ca.crt", "m2.crt", "m2.key", "star.token"},
		"m3": {"ca.crt", "m3.crt", "m3.key", "star.token"}, searchName: {"ca.crt", "search.crt", "search.key", "trust"},
		ctlName: {"ca.crt", "alliancectl.crt", "alliancectl.key"},
	}
	hosts, _ := os.ReadDir(k.path(hostsDir))
	var names []string
	for _, h := range hosts {
		names = append(names, h.Name())
	}
	if !slices.Equal(names, slices.Sorted(maps.Keys(want))) {
		t.Errorf("%s holds %v, want %v", k.path(hostsDir), names, slices.Sorted(maps.Keys(want)))
	}
	if m := mode(t, k.path(hostsDir)); m != 0o700 {
		t.Errorf("hosts/ has mode %#o", m)
	}
	for host, files := range want {
		hdir := filepath.Join(k.path(hostsDir), host)
		got := kitFiles(t, hdir)
		if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(slices.Values(files))) {
			t.Errorf("hosts/%s holds %v, want %v", host, slices.Sorted(maps.Keys(got)), files)
		}
		if m := mode(t, hdir); m != 0o700 {
			t.Errorf("hosts/%s has mode %#o", host, m)
		}
		for f, m := range got {
			flat, _ := os.ReadFile(k.path(f))
			copied, _ := os.ReadFile(filepath.Join(hdir, f))
			if string(flat) != string(copied) || m != mode(t, k.path(f)) {
				t.Errorf("hosts/%s/%s differs from %s (mode %#o)", host, f, f, m)
			}
		}
		if !strings.Contains(out, "  "+host+" ") || !strings.Contains(out, strings.Join(files, " ")) {
			t.Errorf("keys did not say what goes to %s:\n%s", host, out)
		}
	}
	_ = filepath.WalkDir(k.path(hostsDir), func(p string, d fs.DirEntry, err error) error {
		if d != nil && d.Name() == "ca.key" {
			t.Errorf("the CA's key is in %s", p)
		}
		return nil
	})

	// Each certificate is valid for its own hosts only, by x509 and by a real handshake as the
	// operator's client (hosts/alliancectl) against the server's own kit.
	ctlKit := filepath.Join(k.path(hostsDir), ctlName)
	client := pki.Files{CertFile: filepath.Join(ctlKit, "alliancectl.crt"), KeyFile: filepath.Join(ctlKit, "alliancectl.key"),
		CAFile: filepath.Join(ctlKit, "ca.crt")}
	for name, hs := range hostsOf {
		kit := filepath.Join(k.path(hostsDir), name)
		verifies(t, keyDir(kit), name, hs...)
		server := pki.Files{CertFile: filepath.Join(kit, name+".crt"), KeyFile: filepath.Join(kit, name+".key"), CAFile: filepath.Join(kit, "ca.crt")}
		for _, h := range hs {
			if err := tlsHandshake(t, server, client, h); err != nil {
				t.Errorf("%s's certificate, asked for %s: %v", name, h, err)
			}
		}
	}
	m1 := readCert(t, filepath.Join(k.path(hostsDir), "m1", "m1.crt"))
	if len(m1.DNSNames) != 2 || len(m1.IPAddresses) != 1 || !m1.IPAddresses[0].Equal(net.ParseIP("10.0.0.5")) {
		t.Errorf("m1's SANs: DNS %v, IP %v", m1.DNSNames, m1.IPAddresses)
	}
	for _, other := range []string{"m2", "m2.star.svc", "127.0.0.1", "localhost"} {
		if m1.VerifyHostname(other) == nil {
			t.Errorf("m1's certificate is valid for %s", other)
		}
	}
	m1Files := pki.Files{CertFile: k.cert("m1"), KeyFile: k.key("m1"), CAFile: k.caCert()}
	var hostErr x509.HostnameError
	if err := tlsHandshake(t, m1Files, client, "m2.star.svc"); !errors.As(err, &hostErr) {
		t.Errorf("m1's certificate asked for m2.star.svc: %v, want a hostname error", err)
	}

	// Again: nothing changes. A damaged kit is brought back, a stray file removed.
	code, out = runCtl(args...)
	if code != exitOK || !strings.Contains(out, "nothing written") {
		t.Fatalf("keys again: exit %d\n%s", code, out)
	}
	m2kit := filepath.Join(k.path(hostsDir), "m2")
	if err := os.Remove(filepath.Join(m2kit, "m2.key")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m2kit, "ca.key"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out = runCtl(args...)
	if code != exitOK || !strings.Contains(out, "brought 2 files of") {
		t.Fatalf("keys with a damaged kit: exit %d\n%s", code, out)
	}
	if got := kitFiles(t, m2kit); !slices.Equal(slices.Sorted(maps.Keys(got)), want["m2"]) || got["m2.key"] != 0o600 {
		t.Errorf("hosts/m2 after keys: %v", got)
	}

	// Other hosts for m1 are refused without --force; --force starts over, hosts/ included.
	code, out = runCtl("keys", "--out", dir, "--host", "m1=m1.other.svc")
	if code != exitFailure || !strings.Contains(out, "not valid for m1.other.svc") {
		t.Fatalf("keys for other hosts of m1: exit %d\n%s", code, out)
	}
	code, out = runCtl("keys", "--out", dir, "--machines", "1", "--host", "m1=m1.other.svc", "--force")
	if code != exitOK || !strings.Contains(out, "removed "+relPath(k.path(hostsDir))) {
		t.Fatalf("keys --force: exit %d\n%s", code, out)
	}
	if fileExists(filepath.Join(k.path(hostsDir), "m2")) {
		t.Error("--force left hosts/m2")
	}
	verifies(t, keyDir(filepath.Join(k.path(hostsDir), "m1")), "m1", "m1.other.svc")
}

func TestKeysHostUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--host", "m9=a"}, `--host: no process named "m9": the certificates are for m1, m2, m3, search, alliancectl`},
		{[]string{"--host", "m1"}, `"m1" is not NAME=h1,h2`},
		{[]string{"--host", "m1="}, `"m1=" is not NAME=h1,h2`},
		{[]string{"--host", "m1=a,a"}, `--host m1: "a" given twice`},
		{[]string{"--host", "m1=a", "--host", "m1=b"}, "--host: m1 given twice"},
		{[]string{"--host", "m1=a b"}, `--host m1: "a b" is not a valid name`},
		{[]string{"--alliances", "star,ow", "--names", "a,b"}, "--names: the machines of one alliance, and --alliances gives 2"},
		{[]string{"--names", "star-0,Star-1"}, `--names: "Star-1" is not a valid name`},
		{[]string{"--names", "star-0", "--host", "m1=a"}, `--host: no process named "m1"`},
	} {
		code, out := runCtl(append([]string{"keys", "--out", dir}, c.args...)...)
		if code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("keys %v: exit %d, want %d with %q:\n%s", c.args, code, exitUsage, c.want, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused command wrote %d files", len(entries))
	}
	code, out := runCtl("keys", "--help")
	for _, want := range []string{"DIR/hosts/mN/", "ca.key signs new certificates and never leaves DIR", "--host"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("keys --help lacks %q:\n%s", want, out)
		}
	}
}

// TestKeysNames: --names gives the machines their own names (a StatefulSet's pods) instead of
// m1..mN, each with its kit under hosts/ and its certificate for its own hosts.
func TestKeysNames(t *testing.T) {
	dir := t.TempDir()
	code, out := runCtl("keys", "--out", dir, "--names", "star-0,star-1", "--host", "star-0=star-0.star.default.svc")
	if code != exitOK {
		t.Fatalf("keys --names: exit %d:\n%s", code, out)
	}
	for _, f := range []string{"star-0/star-0.crt", "star-0/star-0.key", "star-0/star.token", "star-1/star-1.crt", "star-1/ca.crt"} {
		if _, err := os.Stat(filepath.Join(dir, "hosts", f)); err != nil {
			t.Errorf("hosts/%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "hosts", "m1")); err == nil {
		t.Errorf("hosts/m1 made beside --names")
	}
	b, err := os.ReadFile(filepath.Join(dir, "star-0.crt"))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cert.DNSNames, []string{"star-0.star.default.svc"}) {
		t.Errorf("star-0's certificate names %v, want its --host", cert.DNSNames)
	}
}
