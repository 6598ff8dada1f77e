package integration

import (
	"context"
	"net"
	"sync"
	"time"
)

// containerHosts maps the host names of the test's containers (m1, search...) to their addresses
// on the test's container network, which this host reaches directly (a Linux bridge). The tests'
// HTTP client then names a container as its peers do — https://m1:8101 — and checks its
// certificate for that name, as the peers do. The cluster updates it whenever a container
// (re)starts, since Docker may give a restarted container another address.
var containerHosts sync.Map // host name → IP address

var plainDialer = &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}

// dialContainerAware dials addr, first turning a container's host name into its address.
func dialContainerAware(ctx context.Context, network, addr string) (net.Conn, error) {
	if host, port, err := net.SplitHostPort(addr); err == nil {
		if ip, ok := containerHosts.Load(host); ok {
			addr = net.JoinHostPort(ip.(string), port)
		}
	}
	return plainDialer.DialContext(ctx, network, addr)
}
