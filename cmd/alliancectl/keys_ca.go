package main

import (
	"fmt"
	"os"
	"time"

	"flightalliance/internal/pki"
)

// loadCA reads the CA of an existing keys directory (its key must be a secret only its owner
// can read), refusing one that has expired.
func loadCA(k keyDir) (*pki.CA, error) {
	if err := checkSecret(k.key(caName)); err != nil {
		return nil, err
	}
	certPEM, err := os.ReadFile(k.caCert())
	if err != nil {
		return nil, err
	}
	keyPEM, err := os.ReadFile(k.key(caName))
	if err != nil {
		return nil, err
	}
	ca, err := pki.LoadCA(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("%s, %s: %w", k.caCert(), k.key(caName), err)
	}
	if time.Now().After(ca.Cert.NotAfter) {
		return nil, fmt.Errorf("%s expired on %s", k.caCert(), ca.Cert.NotAfter.Format(time.DateOnly))
	}
	return ca, nil
}
