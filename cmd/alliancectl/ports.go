package main

import (
	"flightalliance/internal/freeport"
	"fmt"
	"net"
)

// freeAddrs returns n distinct loopback addresses that nothing listens on now and that are not
// in taken, below the kernel's ephemeral range, so that `restart` can always bind a killed
// machine's ports again (see internal/freeport).
func freeAddrs(n int, taken map[string]bool) ([]string, error) {
	return freeport.Addrs(n, taken)
}

// checkFree says whether addr can be listened on now, with a message that names it.
func checkFree(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s is taken (another search server, or an earlier run: `alliancectl down`; or pick another with --search, 127.0.0.1:0 for any free port): %w", addr, err)
	}
	return l.Close()
}
