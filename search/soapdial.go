package search

import (
	"net/http"
	"time"

	"flightalliance/soap"
)

// maxDelegateAnswer caps a delegate's getTrips answer (and its WSDL).
const maxDelegateAnswer = 32 << 20

// SOAPDial returns the production DialFunc: a soap.SellerClient per delegate URI, every client
// sharing one connection pool, each call bounded by timeout.
func SOAPDial(timeout time.Duration) DialFunc {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	pool := &http.Client{Transport: t}
	return func(uri string) (Delegate, error) {
		return soap.NewSellerClient(uri, soap.ClientOptions{Timeout: timeout, MaxBody: maxDelegateAnswer, HTTPClient: pool}), nil
	}
}
