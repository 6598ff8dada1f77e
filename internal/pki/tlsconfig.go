package pki

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// Files are the TLS files a server is given: its certificate and key and, optionally, the CA
// that signs its peers' certificates.
type Files struct {
	CertFile, KeyFile, CAFile string
}

// Enabled reports whether TLS is configured.
func (f Files) Enabled() bool { return f.CertFile != "" || f.KeyFile != "" }

// Check reports a half-given configuration, naming the flag.
func (f Files) Check() error {
	switch {
	case f.CertFile == "" && f.KeyFile == "" && f.CAFile != "":
		return errors.New("tls-ca: needs --tls-cert and --tls-key")
	case f.CertFile == "" && f.KeyFile != "":
		return errors.New("tls-cert: required with --tls-key")
	case f.CertFile != "" && f.KeyFile == "":
		return errors.New("tls-key: required with --tls-cert")
	}
	return nil
}

// Server is the TLS configuration of a server: its certificate and, when requireClients and a
// CA is given, client certificates signed by that CA are required.
func (f Files) Server(requireClients bool) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(f.CertFile, f.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("tls-cert/tls-key: %w", err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if f.CAFile != "" && requireClients {
		pool, err := f.pool()
		if err != nil {
			return nil, err
		}
		cfg.ClientCAs, cfg.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return cfg, nil
}

// Client is the TLS configuration of a client: it verifies servers with the CA (the system's
// roots when none is given) and presents its own certificate.
func (f Files) Client() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if f.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(f.CertFile, f.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("tls-cert/tls-key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if f.CAFile != "" {
		pool, err := f.pool()
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

func (f Files) pool() (*x509.CertPool, error) {
	pemData, err := os.ReadFile(f.CAFile)
	if err != nil {
		return nil, fmt.Errorf("tls-ca: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemData) {
		return nil, fmt.Errorf("tls-ca: %s holds no PEM certificate", f.CAFile)
	}
	return pool, nil
}
