package alliance

import (
	"crypto/tls"
	"net/http"
	"time"

	"flightalliance/internal/pki"
)

// security is what a machine makes of its token and TLS files, once, at New: the TLS of its
// listener, and one transport for every call it makes (to the other machines and to the search
// servers) that verifies them with the alliance's CA and presents this machine's certificate.
type security struct {
	token     string
	serverTLS *tls.Config // nil: plain HTTP
	transport *http.Transport
}

func newSecurity(token string, files pki.Files) (security, error) {
	s := security{token: token}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 32
	if files.Enabled() {
		server, err := files.Server(true)
		if err != nil {
			return security{}, err
		}
		client, err := files.Client()
		if err != nil {
			return security{}, err
		}
		s.serverTLS, t.TLSClientConfig = server, client
	}
	s.transport = t
	return s, nil
}

// client is an HTTP client with the machine's transport and a timeout.
func (s security) client(timeout time.Duration) *http.Client {
	return &http.Client{Transport: s.transport, Timeout: timeout}
}

// authorize adds the alliance's token to a request, when the alliance has one.
func (s security) authorize(req *http.Request) {
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
}
