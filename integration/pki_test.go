package integration

import (
	"crypto/tls"
	"net/http"

	"flightalliance/tests/framework"
)

// setupPKI makes the package's keys (framework.SetupKeys) in dir, and lets httpClient speak TLS
// with them (plain http:// URLs are unaffected).
func setupPKI(dir string) error {
	if err := framework.SetupKeys(dir); err != nil {
		return err
	}
	httpClient.Transport = testerTransport()
	return nil
}

// testerTransport is an HTTP transport that speaks TLS as the tests' client (plain http:// URLs
// are unaffected).
func testerTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = framework.TesterTLS
	t.DialContext = dialContainerAware
	return t
}

// http1Transport is testerTransport speaking HTTP/1.1 only: the search server would otherwise
// agree on HTTP/2 with it, which in Go (at both ends) moves a whole answer of a megabyte about
// half a millisecond slower (BenchmarkSearchREST's rest-*-h2 figures).
func http1Transport() *http.Transport {
	t := testerTransport()
	// framework.TesterTLS is shared, and the transports that speak HTTP/2 add "h2" to its NextProtos.
	t.TLSClientConfig = framework.TesterTLS.Clone()
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
