package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runCtl runs alliancectl in-process and returns its exit code and output.
func runCtl(args ...string) (int, string) {
	var out bytes.Buffer
	code := run(context.Background(), args, &out, &out)
	return code, out.String()
}

// readCert parses a PEM certificate file.
func readCert(t *testing.T, file string) *x509.Certificate {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatalf("%s holds no PEM block", file)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// verifies fails unless cert is signed by the CA of k, for server and client use, and valid for hosts.
func verifies(t *testing.T, k keyDir, name string, hosts ...string) {
	t.Helper()
	ca := readCert(t, k.caCert())
	cert := readCert(t, k.cert(name))
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	for _, usage := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
		if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{usage}}); err != nil {
			t.Errorf("%s does not verify against %s for %v: %v", name, k.caCert(), usage, err)
		}
	}
	for _, h := range hosts {
		if err := cert.VerifyHostname(h); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if cert.Subject.CommonName != name {
		t.Errorf("%s's certificate is for %q", name, cert.Subject.CommonName)
	}
}

// snapshot reads every file of dir (not its subdirectories).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			continue // hosts/: the per-host copies, checked on their own
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func mode(t *testing.T, file string) os.FileMode {
	t.Helper()
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestKeysMakesACertificatePerProcessAndATokenPerAlliance(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	k := keyDir(dir)
	code, out := runCtl("keys", "--out", dir, "--alliances", "star,oneworld", "--machines", "2")
	if code != exitOK {
		t.Fatalf("keys: exit %d\n%s", code, out)
	}
	names := []string{"m1", "m2", "m3", "m4", searchName, ctlName}
	want := []string{"ca.crt", "ca.key", "star.token", "oneworld.token", "trust"}
	for _, n := range names {
		want = append(want, n+".crt", n+".key")
	}
	got := snapshot(t, dir)
	if len(got) != len(want) {
		t.Errorf("keys wrote %v, want %v", sortedKeys(got), want)
	}
	for _, f := range want {
		if _, ok := got[f]; !ok {
			t.Errorf("no %s", f)
			continue
		}
		if !strings.Contains(out, "wrote "+relPath(k.path(f))) {
			t.Errorf("keys did not say it wrote %s:\n%s", f, out)
		}
		secret := strings.HasSuffix(f, ".key") || strings.HasSuffix(f, ".token") || f == "trust"
		if m := mode(t, k.path(f)); secret && m != 0o600 || !secret && m&0o022 != 0 {
			t.Errorf("%s has mode %#o", f, m)
		}
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("the keys directory has mode %#o, want 0700", m)
	}
	for _, n := range names {
		verifies(t, k, n, "127.0.0.1", "localhost")
	}
	if ca := readCert(t, k.caCert()); !ca.IsCA {
		t.Error("ca.crt is not a CA certificate")
	}
	// Two distinct tokens, and the trust file names each alliance with its own.
	star, oneworld := strings.TrimSpace(got["star.token"]), strings.TrimSpace(got["oneworld.token"])
	if len(star) < 32 || len(oneworld) < 32 || star == oneworld {
		t.Fatalf("tokens %q and %q: want two distinct long ones", star, oneworld)
	}
	var lines []string
	for l := range strings.Lines(got["trust"]) {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if !slices.Equal(lines, []string{"star " + star, "oneworld " + oneworld}) {
		t.Errorf("trust file lines %q", lines)
	}
	for _, tok := range []string{star, oneworld} {
		if strings.Contains(out, tok) {
			t.Error("keys printed a token")
		}
	}

	// Again: nothing changes, and it says so.
	code, out = runCtl("keys", "--out", dir, "--alliances", "star,oneworld", "--machines", "2")
	if code != exitOK || !strings.Contains(out, "nothing written") {
		t.Fatalf("keys again: exit %d\n%s", code, out)
	}
	if again := snapshot(t, dir); !maps.Equal(again, got) {
		t.Fatal("keys again changed the files")
	}

	// Other hosts: refused without --force, and nothing changes.
	code, out = runCtl("keys", "--out", dir, "--hosts", "10.1.2.3", "--machines", "1")
	if code != exitFailure || !strings.Contains(out, "not valid for 10.1.2.3") || !strings.Contains(out, "--force") {
		t.Fatalf("keys for other hosts: exit %d, want %d naming --force\n%s", code, exitFailure, out)
	}
	if again := snapshot(t, dir); !maps.Equal(again, got) {
		t.Fatal("a refused keys changed the files")
	}

	// --force starts over: a new CA, certificates for the new hosts, new tokens, no stale files.
	code, out = runCtl("keys", "--out", dir, "--hosts", "10.1.2.3,flights.example", "--machines", "1", "--force")
	if code != exitOK || !strings.Contains(out, "removed the 17 files") {
		t.Fatalf("keys --force: exit %d\n%s", code, out)
	}
	forced := snapshot(t, dir)
	if forced["ca.crt"] == got["ca.crt"] || forced["star.token"] == got["star.token"] {
		t.Error("--force kept the CA or the token")
	}
	for _, stale := range []string{"m2.crt", "m4.key", "oneworld.token"} {
		if _, ok := forced[stale]; ok {
			t.Errorf("--force left %s", stale)
		}
	}
	verifies(t, k, "m1", "10.1.2.3", "flights.example")
	if err := readCert(t, k.cert("m1")).VerifyHostname("127.0.0.1"); err == nil {
		t.Error("m1's new certificate is still valid for 127.0.0.1")
	}
}

func TestKeysSignsWhatIsMissingWithTheDirectorysCA(t *testing.T) {
	k := keyDir(filepath.Join(t.TempDir(), "keys"))
	spec := keySpec{Dir: k, Alliances: []string{"star"}, Machines: machineNames(3), Hosts: defaultHosts}
	if _, err := ensureKeys(spec); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, string(k))
	// What `add m9` and `up --alliances 2` ask of an existing directory.
	spec.Machines, spec.Alliances = []string{"m9"}, []string{"star", "oneworld"}
	files, err := ensureKeys(spec)
	if err != nil {
		t.Fatal(err)
	}
	var wrote []string
	for _, f := range files {
		if f.Wrote {
			wrote = append(wrote, filepath.Base(f.Path))
		}
	}
	if want := []string{"m9.crt", "m9.key", "oneworld.token", "trust"}; !slices.Equal(wrote, want) {
		t.Errorf("wrote %v, want %v", wrote, want)
	}
	verifies(t, k, "m9", "127.0.0.1", "localhost")
	after := snapshot(t, string(k))
	for name, data := range before {
		if name != "trust" && after[name] != data {
			t.Errorf("%s changed", name)
		}
	}
	if !strings.Contains(after["trust"], "star "+strings.TrimSpace(before["star.token"])+"\n") ||
		!strings.Contains(after["trust"], "oneworld "+strings.TrimSpace(after["oneworld.token"])+"\n") {
		t.Errorf("trust file after adding oneworld:\n%s", after["trust"])
	}
	if m := mode(t, k.key("m9")); m != 0o600 {
		t.Errorf("m9.key has mode %#o", m)
	}
}

func TestKeysRefusesFilesItCannotVouchFor(t *testing.T) {
	t.Run("no CA beside them", func(t *testing.T) {
		dir := t.TempDir()
		foreign := filepath.Join(dir, "m1.key")
		if err := os.WriteFile(foreign, []byte("someone else's key"), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out := runCtl("keys", "--out", dir)
		if code != exitFailure || !strings.Contains(out, "no ca.crt") || !strings.Contains(out, "--force") {
			t.Fatalf("exit %d, want %d naming ca.crt and --force:\n%s", code, exitFailure, out)
		}
		if b, _ := os.ReadFile(foreign); string(b) != "someone else's key" {
			t.Fatal("the foreign key was overwritten")
		}
	})
	t.Run("a token others may read", func(t *testing.T) {
		dir := t.TempDir()
		if code, out := runCtl("keys", "--out", dir); code != exitOK {
			t.Fatal(out)
		}
		if err := os.Chmod(filepath.Join(dir, "star.token"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out := runCtl("keys", "--out", dir); code != exitFailure || !strings.Contains(out, "chmod 600") {
			t.Fatalf("exit %d, want %d saying chmod 600:\n%s", code, exitFailure, out)
		}
	})
	t.Run("a certificate of another CA", func(t *testing.T) {
		a, b := keyDir(t.TempDir()), keyDir(t.TempDir())
		for _, k := range []keyDir{a, b} {
			if _, err := ensureKeys(keySpec{Dir: k, Alliances: []string{"star"}, Machines: machineNames(1), Hosts: defaultHosts}); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{a.cert("m1"), a.key("m1")} {
			data, _ := os.ReadFile(f)
			if err := os.WriteFile(b.path(filepath.Base(f)), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		_, err := ensureKeys(keySpec{Dir: b, Alliances: []string{"star"}, Machines: machineNames(1), Hosts: defaultHosts})
		if err == nil || !strings.Contains(err.Error(), "does not verify") {
			t.Fatalf("a certificate of another CA: %v", err)
		}
	})
}

func TestKeysUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--alliances", "star,,x"}, "empty name"},
		{[]string{"--alliances", "star,star"}, "given twice"},
		{[]string{"--alliances", "Star Alliance"}, "not a valid name"},
		{[]string{"--machines", "-1"}, "--machines: -1"},
		{[]string{"--hosts", "127.0.0.1,a host"}, `"a host"`},
		{[]string{"extra"}, "unexpected argument"},
	} {
		code, out := runCtl(append([]string{"keys", "--out", dir}, c.args...)...)
		if code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("keys %v: exit %d, want %d with %q:\n%s", c.args, code, exitUsage, c.want, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused command wrote %d files", len(entries))
	}
}

func TestTrustFileKeepsOtherLines(t *testing.T) {
	old := "# mine\nskyteam abc\nstar old\n"
	got := string(trustFile([]byte(old), []string{"star", "oneworld"}, map[string][]string{"star": {"new"}, "oneworld": {"ow"}}))
	if want := "# mine\nskyteam abc\nstar new\noneworld ow\n"; got != want {
		t.Errorf("trust file:\n%s\nwant:\n%s", got, want)
	}
	// While star changes its token (two lines in its token file), both are trusted, where its
	// line was; a second old line of star's goes.
	got = string(trustFile([]byte(old+"star older\n"), []string{"star"}, map[string][]string{"star": {"next", "new"}}))
	if want := "# mine\nskyteam abc\nstar next\nstar new\n"; got != want {
		t.Errorf("trust file during a change of token:\n%s\nwant:\n%s", got, want)
	}
}

// Every machine, those up starts and those add starts later, gets its alliance's token file
// and its own certificate, and every URL is https; the token itself is on no command line.
func TestSecureCommandLines(t *testing.T) {
	dir := t.TempDir()
	s := sampleState(dir)
	s.Keys = filepath.Join(dir, "keys")
	k := s.keys()
	m := Proc{Name: "m9", Kind: kindAirline, Alliance: "star", Sellers: []string{"ZZ"},
		Ports:     Ports{Listen: "127.0.0.1:1", Peer: "127.0.0.1:2", Client: "127.0.0.1:3"},
		Advertise: &Ports{Listen: "127.0.0.1:4", Peer: "127.0.0.1:5", Client: "127.0.0.1:6"}}
	s.Procs[0].Advertise = &Ports{Listen: "127.0.0.1:7"}
	args := strings.Join(airlineArgs(s, m), " ")
	for _, want := range []string{"--token-file " + k.token("star"), "--tls-cert " + k.cert("m9"), "--tls-key " + k.key("m9"),
		"--tls-ca " + k.caCert(), "--advertise-url https://127.0.0.1:4", "--search https://127.0.0.1:7"} {
		if !strings.Contains(args, want) {
			t.Errorf("airline args lack %q: %s", want, args)
		}
	}
	search := strings.Join(s.searchSecurity(), " ")
	if want := "--trust " + k.trust() + " --tls-cert " + k.cert(searchName) + " --tls-key " + k.key(searchName) + " --tls-ca " + k.caCert(); search != want {
		t.Errorf("search flags %q, want %q", search, want)
	}
	s.Keys = ""
	if args := strings.Join(airlineArgs(s, m), " "); strings.Contains(args, "--token-file") || strings.Contains(args, "https") ||
		strings.Contains(args, "--tls") {
		t.Errorf("an open run's machine has security flags: %s", args)
	}
}
