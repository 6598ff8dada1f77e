package main

import (
	"fmt"
	"net"
)

// freeAddrs returns n distinct loopback addresses that nothing listens on now and that are not
// in taken. It holds every listener open until all n are found, so the OS cannot hand out one
// port twice; between this call and the process binding the port another program could take
// it, which the process then reports in its log.
func freeAddrs(n int, taken map[string]bool) ([]string, error) {
	var held []net.Listener
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	out := make([]string, 0, n)
	for tries := 0; len(out) < n; tries++ {
		if tries > 10*n+100 {
			return nil, fmt.Errorf("no free loopback port after %d tries", tries)
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		held = append(held, l)
		if addr := l.Addr().String(); !taken[addr] {
			out = append(out, addr)
		}
	}
	return out, nil
}

// checkFree says whether addr can be listened on now, with a message that names it.
func checkFree(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s is taken (another search server, or an earlier run: `alliancectl down`; or pick another with --search, 127.0.0.1:0 for any free port): %w", addr, err)
	}
	return l.Close()
}
