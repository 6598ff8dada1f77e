package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"

	"flightalliance/internal/pki"
)

// loadedCA is the CA of an existing keys directory. internal/pki's CA cannot be read back from
// its files, so signing here repeats its template (server and client use, IP and DNS SANs).
type loadedCA struct {
	cert *x509.Certificate
	key  crypto.Signer
}

func loadCA(k keyDir) (*loadedCA, error) {
	if err := checkSecret(k.key(caName)); err != nil {
		return nil, err
	}
	pair, err := tls.LoadX509KeyPair(k.caCert(), k.key(caName))
	if err != nil {
		return nil, fmt.Errorf("%s, %s: %w", k.caCert(), k.key(caName), err)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, err
	}
	key, ok := pair.PrivateKey.(crypto.Signer)
	if !ok || !cert.IsCA {
		return nil, fmt.Errorf("%s is not a CA certificate with a signing key", k.caCert())
	}
	if time.Now().After(cert.NotAfter) {
		return nil, fmt.Errorf("%s expired on %s", k.caCert(), cert.NotAfter.Format(time.DateOnly))
	}
	return &loadedCA{cert: cert, key: key}, nil
}

// Issue signs a certificate as pki.CA.Issue does.
func (ca *loadedCA) Issue(name string, hosts ...string) (pki.Pair, error) {
	key, err := ecdsa.GenerateKey(ca.cert.PublicKey.(*ecdsa.PublicKey).Curve, rand.Reader)
	if err != nil {
		return pki.Pair{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return pki.Pair{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(certLife),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	if tmpl.NotAfter.After(ca.cert.NotAfter) {
		tmpl.NotAfter = ca.cert.NotAfter
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return pki.Pair{}, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return pki.Pair{}, err
	}
	return pki.Pair{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}, nil
}
