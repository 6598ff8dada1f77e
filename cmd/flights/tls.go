package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
)

// caFlag adds --ca to fs: the CA that verifies an https search server (a REST client presents
// no certificate: the search server asks none).
func caFlag(fs *flag.FlagSet) *string {
	return fs.String("ca", "", "CA certificate (PEM) that verifies an https --server, instead of the system's roots")
}

// httpClient is the client of the search server: http.DefaultClient, or with caFile one that
// trusts only that CA. Errors are about --ca.
func httpClient(caFile string) (*http.Client, error) {
	if caFile == "" {
		return http.DefaultClient, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s holds no PEM certificate", caFile)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: t}, nil
}

// errPlainWithCA refuses --ca with an http:// server: the CA would silently not be used.
var errPlainWithCA = errors.New("given with an http:// --server: the CA verifies https servers only")
