package integration

import (
	"context"
	"strings"
	"sync"
	"testing"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// faultNet is a set of toxiproxy proxies, in this process, in front of the machines' ports. A
// machine advertises its proxies, so everything that reaches it goes through them; blackhole
// makes a proxy hold every byte (a timeout toxic with timeout 0 on both directions), which is a
// silent partition of the machine's inbound traffic — what etcd's robustness tests call
// blackholing a member's peer network.
type faultNet struct {
	t       testing.TB
	server  *toxiproxy.ApiServer
	mu      sync.Mutex
	proxies map[string]*toxiproxy.Proxy
}

func newFaultNet(t testing.TB) *faultNet {
	n := &faultNet{
		t:       t,
		server:  toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), zerolog.Nop()),
		proxies: map[string]*toxiproxy.Proxy{},
	}
	t.Cleanup(func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		for _, p := range n.proxies {
			p.Stop()
		}
	})
	return n
}

// proxy starts a proxy to upstream and returns the address it listens on.
func (n *faultNet) proxy(name, upstream string) string {
	n.t.Helper()
	listen := freeAddr(n.t)
	p := toxiproxy.NewProxy(n.server, name, listen, upstream)
	if err := p.Start(); err != nil {
		n.t.Fatalf("proxy %s: %v", name, err)
	}
	n.mu.Lock()
	n.proxies[name] = p
	n.mu.Unlock()
	return listen
}

func (n *faultNet) blackhole(name string) {
	n.t.Helper()
	n.mu.Lock()
	p := n.proxies[name]
	n.mu.Unlock()
	for _, stream := range []string{"upstream", "downstream"} {
		toxic := `{"name":"cut-` + stream + `","type":"timeout","stream":"` + stream + `","toxicity":1,"attributes":{"timeout":0}}`
		if _, err := p.Toxics.AddToxicJson(strings.NewReader(toxic)); err != nil {
			n.t.Fatalf("blackhole %s: %v", name, err)
		}
	}
}

func (n *faultNet) restore(name string) {
	n.mu.Lock()
	p := n.proxies[name]
	n.mu.Unlock()
	p.Toxics.ResetToxics(context.Background())
}
