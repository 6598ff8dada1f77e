package pki

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// files writes a CA and a certificate it signs for 127.0.0.1 into a temporary directory.
func files(t *testing.T, ca *CA, name string) Files {
	t.Helper()
	dir := t.TempDir()
	pair, err := ca.Issue(name, "127.0.0.1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	cert, key, err := pair.Write(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(key); st.Mode().Perm() != 0o600 {
		t.Errorf("key written with mode %#o", st.Mode().Perm())
	}
	return Files{CertFile: cert, KeyFile: key, CAFile: caFile}
}

// handshake runs one TLS handshake between a server and a client configuration.
func handshake(t *testing.T, server, client *tls.Config) error {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", server)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	c, err := tls.Dial("tcp", ln.Addr().String(), client)
	if err != nil {
		return err
	}
	defer c.Close()
	// TLS 1.3 reports a refused client certificate on the first read.
	_, err = c.Read(make([]byte, 1))
	if err != nil && !strings.Contains(err.Error(), "EOF") {
		return err
	}
	return nil
}

func TestMutualTLS(t *testing.T) {
	ca, err := NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewCA("another CA")
	if err != nil {
		t.Fatal(err)
	}
	m1, m2, stranger := files(t, ca, "m1"), files(t, ca, "m2"), files(t, other, "x")
	server, err := m1.Server(true)
	if err != nil {
		t.Fatal(err)
	}
	client, err := m2.Client()
	if err != nil {
		t.Fatal(err)
	}
	if err := handshake(t, server, client); err != nil {
		t.Errorf("two machines of one CA: %v", err)
	}
	noCert := &tls.Config{RootCAs: client.RootCAs}
	if err := handshake(t, server, noCert); err == nil {
		t.Error("a client without a certificate was accepted")
	}
	strangerClient, _ := stranger.Client()
	strangerClient.RootCAs = client.RootCAs // it trusts the server, but its certificate is foreign
	if err := handshake(t, server, strangerClient); err == nil {
		t.Error("a client certificate of another CA was accepted")
	}
	if err := handshake(t, server, &tls.Config{}); err == nil {
		t.Error("a client that does not know the CA trusted the server")
	}
}

func TestReadTokens(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, content string
		want          []string
	}{
		{"one", "  abc123\n", []string{"abc123"}},
		{"no newline", "abc123", []string{"abc123"}},
		{"a rotation", "new-one\r\n\n  old-one \n", []string{"new-one", "old-one"}},
		{"comments", "# the alliance's token\n\tabc123 # since May\n#old-one\n", []string{"abc123"}},
	} {
		file := filepath.Join(dir, c.name)
		if err := WriteSecret(file, []byte(c.content)); err != nil {
			t.Fatal(err)
		}
		if got, err := ReadTokens(file); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: ReadTokens = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTokens(open); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable token file: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	_ = WriteSecret(empty, []byte("\n  \n"))
	if _, err := ReadTokens(empty); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("an empty token file: %v", err)
	}
	for _, c := range []struct{ name, content, want string }{
		{"a trust line", "star s3cret-token\n", "bad:1: white space inside the token"},
		{"twice", "abc123\n\nabc123\n", "bad:3: the same token as on line 1"},
		{"only comments", "# none yet\n", "is empty"},
	} {
		bad := filepath.Join(dir, "bad")
		_ = WriteSecret(bad, []byte(c.content))
		_, err := ReadTokens(bad)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "abc123") || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: ReadTokens error %v; want one with %q that shows no token", c.name, err, c.want)
		}
	}
	if _, err := ReadTokens(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory as the token file: %v", err)
	}
	if _, err := ReadTokens(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing token file was accepted")
	}
}

func TestFilesCheck(t *testing.T) {
	for _, f := range []Files{{CAFile: "ca"}, {KeyFile: "k"}, {CertFile: "c"}} {
		if f.Check() == nil {
			t.Errorf("%+v accepted", f)
		}
	}
	if (Files{}).Check() != nil || (Files{CertFile: "c", KeyFile: "k"}).Check() != nil {
		t.Error("a complete or empty configuration refused")
	}
}

func TestLoadCA(t *testing.T) {
	ca, err := NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	back, err := LoadCA(ca.CertPEM, ca.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := back.Issue("m9", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key, err := pair.Write(dir, "m9")
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	m9 := Files{CertFile: cert, KeyFile: key, CAFile: caFile}
	server, err := m9.Server(true)
	if err != nil {
		t.Fatal(err)
	}
	client, err := files(t, ca, "m1").Client()
	if err != nil {
		t.Fatal(err)
	}
	if err := handshake(t, server, client); err != nil {
		t.Errorf("a certificate of the loaded CA: %v", err)
	}
	other, _ := NewCA("other")
	for name, keyPEM := range map[string][]byte{"another CA's key": other.KeyPEM, "no key": nil, "a certificate as key": ca.CertPEM} {
		if _, err := LoadCA(ca.CertPEM, keyPEM); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	leaf, _ := ca.Issue("leaf")
	if _, err := LoadCA(leaf.CertPEM, leaf.KeyPEM); err == nil {
		t.Error("a leaf certificate loaded as a CA")
	}
}
