// Package freeport picks loopback TCP addresses for servers that may have to bind the same port
// again after a restart: the test harnesses' machines and alliancectl's.
//
// A port from the kernel's ephemeral range is the wrong choice for such a server. While it is
// down (killed, restarting, or between a probe and its first bind), the kernel may hand the port
// out as the source port of any outgoing connection — etcd members open many — and the restart
// with the same command line then fails with "address already in use". Ports are therefore
// picked at random below the ephemeral range, where the kernel never assigns source ports, and
// probed by listening once.
//
// Processes that run side by side and restart servers (make test runs the integration tests
// beside alliancectl's) can still take each other's ports while one of their servers is down:
// the probe sees a killed machine's port free. FA_PORTS ("LOW-HIGH") gives each its own part of
// the range.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// lowest is the first port considered: below it live the well-known and registered services a
// developer machine is likely to run.
const lowest = 10000

var (
	mu     sync.Mutex
	handed = map[string]bool{} // every address this process has handed out
)

// Addrs returns n distinct "127.0.0.1:port" addresses that nothing listens on now, that this
// process has not handed out before and that are not in taken, all below the ephemeral range.
// Between this call and the server's bind another program could still take one; starting at a
// random port among some twenty thousand that is rare, and the server then reports the address in its error.
func Addrs(n int, taken map[string]bool) ([]string, error) {
	mu.Lock()
	defer mu.Unlock()
	low, high, err := Range()
	if err != nil {
		return nil, err
	}
	span := high - low
	start := rand.IntN(span) // a random start, so that concurrent processes rarely collide
	out := make([]string, 0, n)
	for i := 0; i < span && len(out) < n; i++ {
		addr := "127.0.0.1:" + strconv.Itoa(low+(start+i)%span)
		if handed[addr] || taken[addr] {
			continue
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		l.Close()
		handed[addr] = true
		out = append(out, addr)
	}
	if len(out) < n {
		return nil, fmt.Errorf("freeport: fewer than %d free loopback ports between %d and %d", n, low, high)
	}
	return out, nil
}

// Range is the ports Addrs picks from, low included, high not: FA_PORTS ("LOW-HIGH", both
// included) when it is set, otherwise from 10000 up to the kernel's ephemeral range. A range
// that reaches into the ephemeral range, or is not one, is an error naming FA_PORTS.
func Range() (low, high int, err error) {
	eph := EphemeralLow()
	v := os.Getenv("FA_PORTS")
	if v == "" {
		return lowest, eph, nil
	}
	a, b, ok := strings.Cut(v, "-")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || lo < 1024 || hi < lo || hi >= eph {
		return 0, 0, fmt.Errorf("freeport: FA_PORTS %q: want LOW-HIGH, 1024 ≤ LOW ≤ HIGH < %d (the ephemeral range's first port)", v, eph)
	}
	return lo, hi + 1, nil
}

// EphemeralLow is the first port of the kernel's ephemeral range (32768 when it cannot be read).
func EphemeralLow() int {
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > lowest+1000 {
				low = n
			}
		}
	}
	return low
}
