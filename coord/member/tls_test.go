package member

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/internal/pki"
)

// tlsOption makes a member speak TLS on its peer and client URLs with a certificate of ca.
func tlsOption(t *testing.T, ca *pki.CA) func(*Config) {
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	return func(c *Config) {
		pair, err := ca.Issue(c.Name, "127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		cert, key, err := pair.Write(dir, c.Name)
		if err != nil {
			t.Fatal(err)
		}
		c.TLS = pki.Files{CertFile: cert, KeyFile: key, CAFile: caFile}
		https := func(s string) string { return strings.ReplaceAll(s, "http://", "https://") }
		c.PeerURL, c.ClientURL, c.InitialCluster = https(c.PeerURL), https(c.ClientURL), https(c.InitialCluster)
		c.ListenPeerURL, c.ListenClientURL = https(c.ListenPeerURL), https(c.ListenClientURL)
	}
}

// TestTLSCluster: three members over TLS with client certificates agree on writes, and a client
// without a certificate of the CA is refused.
func TestTLSCluster(t *testing.T) {
	ca, err := pki.NewCA("coord test CA")
	if err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, 3, tlsOption(t, ca))
	ctx := ctxTimeout(t, 30*time.Second)
	if _, err := c.members[0].Client().Put(ctx, "/tls/k", "v"); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the write reaches every member", func() bool {
		for _, m := range c.members {
			resp, err := m.Client().Get(ctx, "/tls/k", clientv3.WithSerializable())
			if err != nil || len(resp.Kvs) != 1 {
				return false
			}
		}
		return true
	})
	for _, cfg := range c.cfgs {
		if !strings.HasPrefix(cfg.ClientURL, "https://") {
			t.Fatalf("member %s advertises %s", cfg.Name, cfg.ClientURL)
		}
	}

	// A client that trusts the CA but has no certificate of its own.
	ctx2, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	anon, err := clientv3.New(clientv3.Config{Endpoints: []string{c.cfgs[0].ClientURL}, DialTimeout: 2 * time.Second,
		TLS: &tls.Config{RootCAs: pool(ca)}, Logger: zapLogger("fatal")})
	if err == nil {
		defer anon.Close()
		if _, err := anon.Get(ctx2, "/tls/k"); err == nil {
			t.Error("a client without a certificate read the tree")
		}
	}
	// A plain client.
	plain, err := clientv3.New(clientv3.Config{Endpoints: []string{strings.Replace(c.cfgs[0].ClientURL, "https://", "http://", 1)},
		DialTimeout: 2 * time.Second, Logger: zapLogger("fatal")})
	if err == nil {
		defer plain.Close()
		ctx3, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if _, err := plain.Get(ctx3, "/tls/k"); err == nil {
			t.Error("a plain-text client read the tree")
		}
	}
}

func pool(ca *pki.CA) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.Cert)
	return p
}

// TestTLSClusterKeepsHealthyMembers: three healthy members over TLS stay members for several
// dead-member grace periods (the reconciler probes every peer over TLS and must reach them),
// and no removal is reported or recorded.
func TestTLSClusterKeepsHealthyMembers(t *testing.T) {
	var log removalLog
	c := newCluster(t, 3, tlsOption(t, testCA(t)), log.option, func(cfg *Config) { cfg.DeadGrace = 2 * time.Second })
	ctx := ctxTimeout(t, 60*time.Second)
	until := time.Now().Add(4 * 2 * time.Second)
	for time.Now().Before(until) {
		for _, m := range c.members {
			if st := m.Status(ctx); len(st.Members) != 3 {
				t.Fatalf("%s lists %d members after a healthy run over TLS: %+v", m.Name(), len(st.Members), st.Members)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := log.all(); len(got) > 0 {
		t.Fatalf("removals reported in a healthy TLS cluster: %+v", got)
	}
	if rs, err := c.members[0].Removals(ctx); err != nil || len(rs) > 0 {
		t.Fatalf("removals recorded in a healthy TLS cluster: %+v, %v", rs, err)
	}
}

func testCA(t *testing.T) *pki.CA {
	ca, err := pki.NewCA("coord test CA")
	if err != nil {
		t.Fatal(err)
	}
	return ca
}
