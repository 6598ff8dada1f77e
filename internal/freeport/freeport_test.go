package freeport

import (
	"net"
	"strconv"
	"strings"
	"testing"
)

func TestAddrsDistinctListenableBelowTheEphemeralRangeAndNotTaken(t *testing.T) {
	first, err := Addrs(5, nil)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]bool{}
	for _, a := range first {
		taken[a] = true
	}
	if len(taken) != 5 {
		t.Fatalf("Addrs(5) = %v, not 5 distinct addresses", first)
	}
	got, err := Addrs(50, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range got {
		if taken[a] || seen[a] {
			t.Fatalf("Addrs handed out %s twice (first %v, got %v)", a, first, got)
		}
		seen[a] = true
		port, ok := strings.CutPrefix(a, "127.0.0.1:")
		if !ok {
			t.Fatalf("%s is not a loopback address", a)
		}
		if p, err := strconv.Atoi(port); err != nil || p < lowest || p >= EphemeralLow() {
			t.Fatalf("%s is not between %d and the ephemeral range (%d)", a, lowest, EphemeralLow())
		}
		l, err := net.Listen("tcp", a)
		if err != nil {
			t.Fatalf("%s from Addrs cannot be listened on: %v", a, err)
		}
		l.Close()
	}
}

// With every port but one taken, Addrs finds that one.
func TestAddrsSkipsTaken(t *testing.T) {
	free, err := Addrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	delete(handed, free[0]) // as if another process had handed it out
	mu.Unlock()
	taken := map[string]bool{}
	for p := lowest; p < EphemeralLow(); p++ {
		if a := "127.0.0.1:" + strconv.Itoa(p); a != free[0] {
			taken[a] = true
		}
	}
	got, err := Addrs(1, taken)
	if err != nil || len(got) != 1 || got[0] != free[0] {
		t.Fatalf("Addrs(1) with all but %s taken = %v, %v", free[0], got, err)
	}
}

// TestFAPortsBoundsTheRange: with FA_PORTS every address is in it; a bad range is an error
// naming FA_PORTS.
func TestFAPortsBoundsTheRange(t *testing.T) {
	t.Setenv("FA_PORTS", "20000-20099")
	got, err := Addrs(20, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got {
		_, p, _ := strings.Cut(a, ":")
		if n, _ := strconv.Atoi(p); n < 20000 || n > 20099 {
			t.Errorf("%s outside FA_PORTS 20000-20099", a)
		}
	}
	for _, bad := range []string{"x", "20000", "20099-20000", "80-90", "20000-70000", "20000-"} {
		t.Setenv("FA_PORTS", bad)
		if _, err := Addrs(1, nil); err == nil || !strings.Contains(err.Error(), "FA_PORTS") {
			t.Errorf("FA_PORTS=%q: %v, want an error naming FA_PORTS", bad, err)
		}
	}
}
