package integration

import (
	"io"
	"maps"
	"net"
	"slices"
	"testing"
	"time"

	"flightalliance/internal/faultnet"
)

// A wide-area network in miniature: every proxy of a faultNet holds each byte for the same
// one-way delay in both directions (faultnet.Delay), so that every connection through a proxy
// has a round trip of twice that delay. What it does not add is the TCP handshake (a proxy
// accepts at once and dials its upstream locally) or TCP's slow start: a new connection across a
// real ocean costs one round trip more, and a large answer a few more.

// delayAll gives every proxy of n a one-way delay of oneWay in each direction.
func (n *faultNet) delayAll(oneWay time.Duration) {
	n.t.Helper()
	proxies := n.proxies.All()
	for _, name := range slices.Sorted(maps.Keys(proxies)) {
		if err := faultnet.Delay(proxies[name], oneWay); err != nil {
			n.t.Fatalf("delay %s: %v", name, err)
		}
	}
}

// echoProxy starts a TCP echo server in this process behind a proxy of n, and returns the
// proxy's address: a link to measure round trips on, with nothing at its far end but the echo.
func (n *faultNet) echoProxy(name string) string {
	n.t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return n.proxy(name, l.Addr().String())
}

// roundTrips measures count round trips of one byte over one connection to addr, after a first
// one that is not counted, and returns them sorted.
func roundTrips(t testing.TB, addr string, count int) []time.Duration {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	one := []byte{'.'}
	var out []time.Duration
	for i := range count + 1 {
		if err := c.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Write(one); err != nil {
			t.Fatalf("echo through %s: %v", addr, err)
		}
		if _, err := io.ReadFull(c, one); err != nil {
			t.Fatalf("echo through %s: %v", addr, err)
		}
		if i > 0 {
			out = append(out, time.Since(start))
		}
	}
	slices.Sort(out)
	return out
}
