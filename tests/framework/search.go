package framework

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"strings"
	"sync"
	"testing"

	"flightalliance/internal/airlinecmd"
)

// searchCerts maps a secure search server's base URL to its certificate file.
var searchCerts sync.Map

// StartSearch starts a search server the way make run does — HTTPS with a certificate of the
// test CA, verifying the delegates it calls, trusting only the registrations that carry a test
// alliance's token (TrustFile) — and returns its base URL (https://...). flags are added to its
// command line.
func StartSearch(t testing.TB, dir string, flags ...string) (base string, p *Proc) {
	t.Helper()
	addr := FreeAddr(t)
	name := "search-" + strings.ReplaceAll(addr, ":", "-")
	files := IssueFiles(t, dir, name)
	args := append([]string{"--listen", addr, "--trust", TrustFile}, airlinecmd.TLSArgs(files)...)
	p = StartProc(t, dir, name, "search", append(args, flags...)...)
	base = "https://" + addr
	searchCerts.Store(base, files.CertFile)
	return base, p
}

// SearchSPKI is the base64 SHA-256 of the public key of the search server at base (what
// Chromium's --ignore-certificate-errors-spki-list takes), or "" for an open one.
func SearchSPKI(t testing.TB, base string) string {
	t.Helper()
	file, ok := searchCerts.Load(base)
	if !ok {
		return ""
	}
	data, err := os.ReadFile(file.(string))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("%s: no PEM certificate", file)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}
