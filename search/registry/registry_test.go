package registry

import (
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for the registry's pure logic; the server tests use real time.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func names(regs []Registration) []string {
	var out []string
	for _, r := range regs {
		out = append(out, r.Name)
	}
	return out
}

func TestRegistryRefreshReplaceAndGoStale(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	r := New(30*time.Second, clk.now)

	first, replaced := r.Register("star", "http://10.0.0.1:8101/Services/SellerService")
	if replaced != "" || !first.ExpiresAt.Equal(first.LastSeen.Add(30*time.Second)) {
		t.Fatalf("first registration = %+v, replaced %q", first, replaced)
	}
	clk.advance(20 * time.Second)
	refreshed, replaced := r.Register("star", "http://10.0.0.1:8101/Services/SellerService")
	if replaced != "" || !refreshed.RegisteredAt.Equal(first.RegisteredAt) || !refreshed.LastSeen.After(first.LastSeen) {
		t.Fatalf("refresh = %+v, replaced %q; want same registered_at, later last_seen", refreshed, replaced)
	}
	clk.advance(20 * time.Second) // 40s after the first registration, 20s after the refresh
	if got := r.All(); len(got) != 1 || got[0].Stale {
		t.Fatalf("registrations = %+v: a refreshed registration went stale", got)
	}
	moved, replaced := r.Register("star", "http://10.0.0.2:8101/Services/SellerService")
	if replaced != "http://10.0.0.1:8101/Services/SellerService" || !moved.RegisteredAt.Equal(clk.now()) {
		t.Fatalf("replace = %+v, replaced %q", moved, replaced)
	}
	r.Register("sky", "http://10.0.0.3:8101/Services/SellerService")
	if got := names(r.All()); !slices.Equal(got, []string{"sky", "star"}) {
		t.Fatalf("registrations = %v, want [sky star]", got)
	}
	clk.advance(30 * time.Second)
	got := r.All()
	if live, stale := r.Counts(); len(got) != 2 || !got[0].Stale || !got[1].Stale || live != 0 || stale != 2 {
		t.Fatalf("after the TTL: %+v (live %d, stale %d); want both known and stale", got, live, stale)
	}
	// A stale alliance comes back fresh when its delegate registers again.
	back, replaced := r.Register("star", "http://10.0.0.2:8101/Services/SellerService")
	if replaced != "" || back.Stale || !back.RegisteredAt.Equal(moved.RegisteredAt) {
		t.Fatalf("refresh of a stale registration = %+v, replaced %q", back, replaced)
	}
	if live, stale := r.Counts(); live != 1 || stale != 1 {
		t.Fatalf("live %d, stale %d after star came back; want 1 and 1", live, stale)
	}
}

func TestRegistryRemoveByHost(t *testing.T) {
	clk := &fakeClock{t: time.Now()}
	r := New(time.Minute, clk.now)
	r.Register("a", "http://10.0.0.1:8101/Services/SellerService")
	r.Register("b", "http://10.0.0.1:9000/x")
	r.Register("c", "http://10.0.0.2:8101/Services/SellerService")
	r.Register("d", "http://[::1]:8101/Services/SellerService")
	r.Register("e", "http://localhost:8101/Services/SellerService")

	if got := names(r.RemoveByHost(net.ParseIP("10.0.0.1"))); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("removed %v, want [a b]", got)
	}
	if got := names(r.RemoveByHost(net.ParseIP("::1"))); !slices.Equal(got, []string{"d", "e"}) {
		t.Errorf("removed %v, want [d e] (localhost is loopback)", got)
	}
	if got := names(r.All()); !slices.Equal(got, []string{"c"}) {
		t.Errorf("left %v, want [c]", got)
	}
	if _, ok := r.Remove("c"); !ok {
		t.Error("Remove(c) found nothing")
	}
	if _, ok := r.Remove("c"); ok {
		t.Error("Remove(c) twice found it twice")
	}
}

func TestValidName(t *testing.T) {
	for _, name := range []string{"star", "Sky_Team-2", "a", strings.Repeat("x", 64)} {
		if !ValidName(name) {
			t.Errorf("ValidName(%q) = false", name)
		}
	}
	for _, name := range []string{"", strings.Repeat("x", 65), "star team", "star.1", "é", "a/b"} {
		if ValidName(name) {
			t.Errorf("ValidName(%q) = true", name)
		}
	}
}
