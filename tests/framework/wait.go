package framework

import (
	"testing"
	"time"

	"flightalliance/internal/freeport"
)

// FreeAddr returns a loopback address nobody listens on now, below the kernel's ephemeral range
// (see internal/freeport: a killed machine's restart must be able to bind its ports again).
func FreeAddr(t testing.TB) string {
	t.Helper()
	addrs, err := freeport.Addrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return addrs[0]
}

// Eventually polls cond until it returns nil or the timeout passes, then fails with its last
// error; it returns how long cond took to hold.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func() error) time.Duration {
	t.Helper()
	start := time.Now()
	var last error
	for time.Since(start) < timeout {
		if last = cond(); last == nil {
			return time.Since(start)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within %v: %v", what, timeout, last)
	return 0
}
