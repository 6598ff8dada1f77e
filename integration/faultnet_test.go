package integration

import (
	"context"
	"testing"

	"flightalliance/internal/faultnet"
	"flightalliance/tests/framework"
)

// faultNet is a set of toxiproxy proxies, in this process, in front of the machines' ports (set
// up by faultnet, as alliancectl's are). A machine advertises its proxies, so everything that
// reaches it goes through them; blackhole makes a proxy hold every byte in both directions,
// which is a silent partition of the machine's inbound traffic — what etcd's robustness tests
// call blackholing a member's peer network.
type faultNet struct {
	t       testing.TB
	proxies *faultnet.Proxies
}

func newFaultNet(t testing.TB) *faultNet {
	n := &faultNet{t: t, proxies: faultnet.New()}
	t.Cleanup(func() { _ = n.proxies.Close() })
	return n
}

// proxy starts a proxy to upstream and returns the address it listens on.
func (n *faultNet) proxy(name, upstream string) string {
	n.t.Helper()
	listen := framework.FreeAddr(n.t)
	if _, err := n.proxies.Start(name, listen, upstream); err != nil {
		n.t.Fatalf("proxy %s: %v", name, err)
	}
	return listen
}

func (n *faultNet) blackhole(name string) {
	n.t.Helper()
	if err := faultnet.Partition(n.proxies.Get(name)); err != nil {
		n.t.Fatalf("blackhole %s: %v", name, err)
	}
}

func (n *faultNet) restore(name string) {
	faultnet.Heal(context.Background(), n.proxies.Get(name))
}
