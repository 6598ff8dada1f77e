package manifests

import (
	"testing"

	"flightalliance/internal/pki"
)

// testKeys issues the files alliancectl keys writes for a host (hosts/<name>/), from one CA and
// one token for the alliance star, as the deployment files expect to find them.
type testKeys struct {
	t     *testing.T
	ca    *pki.CA
	token string
}

func newTestKeys(t *testing.T) *testKeys {
	t.Helper()
	ca, err := pki.NewCA("manifests test CA")
	if err != nil {
		t.Fatal(err)
	}
	return &testKeys{t: t, ca: ca, token: pki.Token()}
}

func (k *testKeys) issue(name string, hosts ...string) pki.Pair {
	k.t.Helper()
	p, err := k.ca.Issue(name, hosts...)
	if err != nil {
		k.t.Fatal(err)
	}
	return p
}

// machine is a machine's directory: the CA, its certificate and key, its alliance's token.
func (k *testKeys) machine(name, alliance, host string) map[string][]byte {
	p := k.issue(name, host, "localhost")
	return map[string][]byte{"ca.crt": k.ca.CertPEM, name + ".crt": p.CertPEM, name + ".key": p.KeyPEM,
		alliance + ".token": []byte(k.token + "\n")}
}

// search is the search server's directory: the CA, its certificate and key, the trust file.
func (k *testKeys) search(host string) map[string][]byte {
	p := k.issue("search", host, "search", "localhost", "127.0.0.1")
	return map[string][]byte{"ca.crt": k.ca.CertPEM, "search.crt": p.CertPEM, "search.key": p.KeyPEM,
		"trust": []byte("star " + k.token + "\n")}
}
