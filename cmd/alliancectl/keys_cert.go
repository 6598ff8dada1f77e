package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strings"

	"flightalliance/internal/pki"
)

// issuer signs certificates: a new *pki.CA, or the CA of an existing directory.
type issuer interface {
	Issue(name string, hosts ...string) (pki.Pair, error)
}

// openCA loads the directory's CA, or makes one when the directory holds none of the files
// names and alliances would need (anything else there was not signed by it).
func openCA(k keyDir, names, alliances []string) (issuer, []keyFile, error) {
	if fileExists(k.caCert()) {
		ca, err := loadCA(k)
		if err != nil {
			return nil, nil, fmt.Errorf("%w; %s", err, errForce(k))
		}
		return ca, []keyFile{{Path: k.caCert(), What: "the CA's certificate"}, {Path: k.key(caName), What: "the CA's key"}}, nil
	}
	var found []string
	for _, p := range []string{k.key(caName), k.trust()} {
		if fileExists(p) {
			found = append(found, p)
		}
	}
	for _, n := range names {
		for _, p := range []string{k.cert(n), k.key(n)} {
			if fileExists(p) {
				found = append(found, p)
			}
		}
	}
	for _, a := range alliances {
		if fileExists(k.token(a)) {
			found = append(found, k.token(a))
		}
	}
	if len(found) > 0 {
		return nil, nil, fmt.Errorf("%s holds %s but no %s: not keys alliancectl made, so not overwritten; %s",
			relPath(string(k)), strings.Join(found, ", "), caName+".crt", errForce(k))
	}
	ca, err := pki.NewCA(caSubject)
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(k.caCert(), ca.CertPEM, 0o644); err != nil {
		return nil, nil, err
	}
	if err := pki.WriteSecret(k.key(caName), ca.KeyPEM); err != nil {
		return nil, nil, err
	}
	return ca, []keyFile{
		{Path: k.caCert(), What: "the CA's certificate: clients verify the servers with it (curl --cacert, flights --ca)", Wrote: true},
		{Path: k.key(caName), What: "the CA's key: alliancectl signs new machines' certificates with it", Wrote: true},
	}, nil
}

// ensureCert keeps name's certificate when it checks out, or issues one.
func ensureCert(k keyDir, ca issuer, name string, hosts []string) ([]keyFile, error) {
	what := "machine " + name + "'s certificate"
	switch name {
	case searchName:
		what = "the search server's certificate"
	case ctlName:
		what = "alliancectl's certificate, a client's: status, load, curl --cert, etcdctl --cert"
	}
	crt, key := k.cert(name), k.key(name)
	if fileExists(crt) || fileExists(key) {
		if err := checkCert(k, name, hosts); err != nil {
			return nil, fmt.Errorf("%w; %s", err, errForce(k))
		}
		return []keyFile{{Path: crt, What: what}, {Path: key, What: "its key"}}, nil
	}
	pair, err := ca.Issue(name, hosts...)
	if err != nil {
		return nil, fmt.Errorf("keys: issuing %s: %w", name, err)
	}
	if _, _, err := pair.Write(string(k), name); err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	return []keyFile{{Path: crt, What: what + " (" + strings.Join(hosts, ", ") + ")", Wrote: true},
		{Path: key, What: "its key", Wrote: true}}, nil
}

// checkCert says why name's certificate in k cannot be used for hosts: missing, another key,
// not signed by the directory's CA, expired, without one of the hosts, or a key others may read.
func checkCert(k keyDir, name string, hosts []string) error {
	crt, key := k.cert(name), k.key(name)
	if err := checkSecret(key); err != nil {
		return err
	}
	pair, err := tls.LoadX509KeyPair(crt, key)
	if err != nil {
		return fmt.Errorf("%s, %s: %w", crt, key, err)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return fmt.Errorf("%s: %w", crt, err)
	}
	caPEM, err := os.ReadFile(k.caCert())
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(caPEM)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}); err != nil {
		return fmt.Errorf("%s does not verify against %s: %w", crt, k.caCert(), err)
	}
	for _, h := range hosts {
		if err := cert.VerifyHostname(h); err != nil {
			return fmt.Errorf("%s is not valid for %s (it was made for other hosts: --hosts, --host)", crt, h)
		}
	}
	return nil
}

// checkSecret says why a private key or token file cannot be kept: missing, or readable by
// others than its owner.
func checkSecret(file string) error {
	st, err := os.Stat(file)
	if err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%s is readable by others (mode %#o): chmod 600 it", file, perm)
	}
	return nil
}
