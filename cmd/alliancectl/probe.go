package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// exitUnhealthy is probe's exit code for anything but a 200: what a container's HEALTHCHECK
// takes as unhealthy (Docker reserves 2).
const exitUnhealthy = 1

// unhealthyError is a probe that did not get a 200.
type unhealthyError struct{ err error }

func (e unhealthyError) Error() string { return e.err.Error() }
func (e unhealthyError) Unwrap() error { return e.err }

// maxProbeBody bounds what probe reads and prints of an answer.
const maxProbeBody = 1 << 10

// cmdProbe GETs a URL and succeeds on 200 only: the HEALTHCHECK of an image built FROM scratch,
// which has no curl (alliancectl probe http://127.0.0.1:9090/readyz).
func cmdProbe(ctx context.Context, args []string, out io.Writer) error {
	fs, _ := newFlags("probe", "probe URL [--cacert FILE] [--timeout 2s]   (exit 0 on a 200 answer, 1 on anything else)", out)
	cacert := fs.String("cacert", "", "CA certificate that verifies an https:// server (default: the system's roots)")
	timeout := fs.Duration("timeout", 2*time.Second, "deadline of the whole request")
	pos, err := parse(fs, args, 1, "URL, e.g. http://127.0.0.1:9090/readyz")
	if err != nil {
		return err
	}
	u, err := url.Parse(pos[0])
	switch {
	case err != nil:
		return usagef("URL: %q is not an http:// or https:// URL with a host (%v)", pos[0], err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return usagef("URL: %q is not an http:// or https:// URL with a host", pos[0])
	case *timeout <= 0:
		return usagef("--timeout: %v, want a positive duration", *timeout)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil // a health check asks the server itself, never a proxy from the environment
	if *cacert != "" {
		pemData, err := os.ReadFile(*cacert)
		if err != nil {
			return usagef("--cacert: %v", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pemData) {
			return usagef("--cacert: %s holds no PEM certificate", *cacert)
		}
		t.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	c := &http.Client{Timeout: *timeout, Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return usagef("URL: %v", err)
	}
	resp, err := c.Do(req)
	if err != nil {
		var unknownCA x509.UnknownAuthorityError
		if errors.As(err, &unknownCA) && *cacert == "" {
			err = fmt.Errorf("%w (give the server's CA with --cacert)", err)
		}
		return unhealthyError{err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxProbeBody))
	text := strings.TrimSpace(string(body))
	if resp.StatusCode != http.StatusOK {
		return unhealthyError{fmt.Errorf("GET %s: %s: %s", u, resp.Status, orNone(text))}
	}
	fmt.Fprintf(out, "%s %s\n", resp.Status, text)
	return nil
}
