package integration

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"flightalliance/internal/pki"
)

// The package's certificate authority: every secure test alliance's machines, search servers
// and the tests themselves (as clients) get certificates it signs.
var (
	testCA     *pki.CA
	testCAFile string
	testerTLS  *tls.Config // the tests' client TLS: trusts testCA, presents a certificate of it
)

// setupPKI makes the CA and the tester's certificate in dir, and lets httpClient speak TLS with
// them (plain http:// URLs are unaffected).
func setupPKI(dir string) error {
	ca, err := pki.NewCA("flightalliance integration tests")
	if err != nil {
		return err
	}
	testCA, testCAFile = ca, filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(testCAFile, ca.CertPEM, 0o644); err != nil {
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
	testerTLS, err = pki.Files{CertFile: cert, KeyFile: key, CAFile: testCAFile}.Client()
	if err != nil {
		return fmt.Errorf("tester TLS: %w", err)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = testerTLS
	httpClient.Transport = t
	return nil
}

// issueFiles writes a certificate of the test CA for name (127.0.0.1 and localhost) into dir.
func issueFiles(t testing.TB, dir, name string) pki.Files {
	t.Helper()
	pair, err := testCA.Issue(name, "127.0.0.1", "localhost")
	if err != nil {
		t.Fatal(err)
	}
	cert, key, err := pair.Write(dir, name)
	if err != nil {
		t.Fatal(err)
	}
	return pki.Files{CertFile: cert, KeyFile: key, CAFile: testCAFile}
}

// tlsArgs are the --tls-* flags of a server with files f.
func tlsArgs(f pki.Files) []string {
	return []string{"--tls-cert", f.CertFile, "--tls-key", f.KeyFile, "--tls-ca", f.CAFile}
}

// writeToken writes a fresh token into dir/name.token (mode 0600) and returns it and the file.
func writeToken(t testing.TB, dir, name string) (token, file string) {
	t.Helper()
	token, file = pki.Token(), filepath.Join(dir, name+".token")
	if err := pki.WriteSecret(file, []byte(token+"\n")); err != nil {
		t.Fatal(err)
	}
	return token, file
}
