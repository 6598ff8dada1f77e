package alliance

import (
	"crypto/tls"
	"errors"
	"net/http"
	"time"

	"flightalliance/internal/pki"
	"flightalliance/soap"
)

// security is what a machine makes of its token and TLS files at New: its tokens (nil: an open
// alliance; SetTokens changes them while it runs), the TLS of its listener, and one transport for
// every call it makes (to the other machines and to the search servers) that verifies them with
// the alliance's CA and presents this machine's certificate.
type security struct {
	tokens    *soap.Tokens
	serverTLS *tls.Config // nil: plain HTTP
	transport *http.Transport
}

func newSecurity(token string, alsoAccepted []string, files pki.Files) (security, error) {
	s := security{}
	if token != "" {
		s.tokens = soap.NewTokens(token, alsoAccepted...)
	}
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
	if s.tokens != nil {
		req.Header.Set("Authorization", s.tokens.Authorization())
	}
}

// SetTokens changes the alliance's tokens while the machine runs (the airline server reads its
// token file again on SIGHUP): send is the token its calls and registrations carry from now on,
// and its IntraClusterService accepts send and alsoAccepted. An open alliance (started without
// a token) stays open: it returns an error and changes nothing.
func (m *Machine) SetTokens(send string, alsoAccepted ...string) error {
	if m.sec.tokens == nil {
		return errors.New("this machine was started without a token (an open alliance): restart it with --token-file")
	}
	if send == "" {
		return errors.New("no token to send")
	}
	m.sec.tokens.Set(send, alsoAccepted...)
	return nil
}
