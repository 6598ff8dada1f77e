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
	pkiDir     string      // where the package's certificates, tokens and trust file are

	// Every alliance name the tests use has one token for the whole package run, and every
	// secure search server trusts them all (testTrustFile), as make run's trust file does.
	allianceTokens = map[string]string{}
	testTrustFile  string
)

// testAllianceNames are the alliances the tests start (their tokens are in testTrustFile).
var testAllianceNames = []string{"star", "sky", "oneworld", "cold", "warm"}

// setupPKI makes the CA and the tester's certificate in dir, and lets httpClient speak TLS with
// them (plain http:// URLs are unaffected).
func setupPKI(dir string) error {
	ca, err := pki.NewCA("flightalliance integration tests")
	if err != nil {
		return err
	}
	testCA, testCAFile, pkiDir = ca, filepath.Join(dir, "ca.crt"), dir
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
	httpClient.Transport = testerTransport()
	trust := "# alliance token\n"
	for _, name := range testAllianceNames {
		allianceTokens[name] = pki.Token()
		if err := pki.WriteSecret(filepath.Join(dir, name+".token"), []byte(allianceTokens[name]+"\n")); err != nil {
			return err
		}
		trust += name + " " + allianceTokens[name] + "\n"
	}
	testTrustFile = filepath.Join(dir, "trust")
	return pki.WriteSecret(testTrustFile, []byte(trust))
}

// allianceToken is alliance name's token and the file that holds it (mode 0600).
func allianceToken(t testing.TB, name string) (token, file string) {
	t.Helper()
	token, ok := allianceTokens[name]
	if !ok {
		t.Fatalf("alliance %q has no test token: add it to testAllianceNames", name)
	}
	return token, filepath.Join(pkiDir, name+".token")
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

// testerTransport is an HTTP transport that speaks TLS as the tests' client (plain http:// URLs
// are unaffected).
func testerTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = testerTLS
	t.DialContext = dialContainerAware
	return t
}

// http1Transport is testerTransport speaking HTTP/1.1 only: the search server would otherwise
// agree on HTTP/2 with it, which in Go (at both ends) moves a whole answer of a megabyte about
// half a millisecond slower (BenchmarkSearchREST's rest-*-h2 figures).
func http1Transport() *http.Transport {
	t := testerTransport()
	// testerTLS is shared, and the transports that speak HTTP/2 add "h2" to its NextProtos.
	t.TLSClientConfig = testerTLS.Clone()
	t.TLSClientConfig.NextProtos = []string{"http/1.1"}
	t.ForceAttemptHTTP2 = false
	t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	return t
}

// tuned sets a transport's idle connections per host (load from several clients).
func tuned(t *http.Transport, idlePerHost int) *http.Transport {
	t.MaxIdleConnsPerHost = idlePerHost
	return t
}
