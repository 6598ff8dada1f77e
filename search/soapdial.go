package search

import (
	"crypto/tls"
	"net/http"
	"time"

	"flightalliance/soap"
)

// maxDelegateAnswer caps a delegate's getTrips answer (and its WSDL).
const maxDelegateAnswer = 32 << 20

// SOAPDial returns the production DialFunc: a soap.SellerClient per delegate URI, every client
// sharing one connection pool, each call bounded by timeout.
func SOAPDial(timeout time.Duration) DialFunc { return SOAPDialTLS(timeout, nil) }

// SOAPDialTLS is SOAPDial whose calls to https delegates use tc: the roots that verify the
// delegates (a CA's, with pki.Files.Client) and the certificate presented to them. Nil tc means
// the system's roots and no certificate.
func SOAPDialTLS(timeout time.Duration, tc *tls.Config) DialFunc {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	if tc != nil {
		t.TLSClientConfig = tc.Clone()
	}
	pool := &http.Client{Transport: t}
	return func(uri string) (Delegate, error) {
		return soap.NewSellerClient(uri, soap.ClientOptions{Timeout: timeout, MaxBody: maxDelegateAnswer, HTTPClient: pool}), nil
	}
}
