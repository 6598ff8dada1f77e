package framework

import (
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"flightalliance/internal/pki"
)

// The test package's keys, made once by SetupKeys: a certificate authority that signs every
// secure test alliance's machines, its search servers and the tests themselves (as clients).
var (
	CA        *pki.CA
	CAFile    string
	TesterTLS *tls.Config // the tests' client TLS: trusts CA, presents a certificate of it
	// TrustFile is what every secure search server trusts: the token of each of AllianceNames,
	// one for the whole package run, as make run's trust file does.
	TrustFile string

	keysDir        string // where the package's certificates, tokens and trust file are
	allianceTokens = map[string]string{}
)

// AllianceNames are the alliances the tests start (their tokens are in TrustFile).
var AllianceNames = []string{"star", "sky", "oneworld", "cold", "warm"}

// SetupKeys makes the CA, the tester's certificate, every alliance's token and the trust file
// in dir.
func SetupKeys(dir string) error {
	ca, err := pki.NewCA("flightalliance integration tests")
	if err != nil {
		return err
	}
	CA, CAFile, keysDir = ca, filepath.Join(dir, "ca.crt"), dir
	if err := os.WriteFile(CAFile, ca.CertPEM, 0o644); err != nil {
		return err
	}
	pair, err := ca.Issue("tester", "127.0.0.1", "localhost")
	if err != nil {
		return err
	}
	cert, key, err := pair.Write(dir, "tester")
	if err != nil {
		return err
	}
	TesterTLS, err = pki.Files{CertFile: cert, KeyFile: key, CAFile: CAFile}.Client()
	if err != nil {
		return fmt.Errorf("tester TLS: %w", err)
	}
	trust := "# alliance token\n"
	for _, name := range AllianceNames {
		allianceTokens[name] = pki.Token()
		if err := pki.WriteSecret(filepath.Join(dir, name+".token"), []byte(allianceTokens[name]+"\n")); err != nil {
			return err
		}
		trust += name + " " + allianceTokens[name] + "\n"
	}
	TrustFile = filepath.Join(dir, "trust")
	return pki.WriteSecret(TrustFile, []byte(trust))
}

// AllianceToken is alliance name's token and the file that holds it (mode 0600).
func AllianceToken(t testing.TB, name string) (token, file string) {
	t.Helper()
	token, ok := allianceTokens[name]
	if !ok {
		t.Fatalf("alliance %q has no test token: add it to AllianceNames", name)
	}
	return token, filepath.Join(keysDir, name+".token")
}

// IssueFiles writes a certificate of the test CA for name (127.0.0.1 and localhost) into dir.
func IssueFiles(t testing.TB, dir, name string) pki.Files {
	t.Helper()
	pair, err := CA.Issue(name, "127.0.0.1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	cert, key, err := pair.Write(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return pki.Files{CertFile: cert, KeyFile: key, CAFile: CAFile}
}
