package member

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/internal/freeport"
)

// The member's tests start clusters of real members with this harness. The recipes' tests in coord
// have one of their own (coord/cluster_test.go), as an external test package: coord cannot import
// this package.

// freeURLs returns n loopback URLs on free ports below the ephemeral range, so that a member
// stopped and started again on its URLs can always bind them (see internal/freeport).
func freeURLs(t testing.TB, n int) []string {
	t.Helper()
	addrs, err := freeport.Addrs(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	urls := make([]string, n)
	for i, a := range addrs {
		urls[i] = "http://" + a
	}
	return urls
}

func testLogger() *slog.Logger {
	if os.Getenv("COORD_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// testConfig is a member config with test timings: short grace, no fsync.
func testConfig(t testing.TB, dir, name, peer, client, initial string) Config {
	return Config{
		Name: name, DataDir: filepath.Join(dir, name), PeerURL: peer, ClientURL: client,
		InitialCluster: initial, ClusterToken: "test", DeadGrace: 3 * time.Second,
		StartTimeout: 45 * time.Second, Logger: testLogger(), UnsafeNoFsync: true,
		EtcdLogLevel: envOr("COORD_ETCD_LOG", "fatal"),
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// testCluster is n embedded members bootstrapped together in one process.
type testCluster struct {
	t       testing.TB
	dir     string
	cfgs    []Config
	members []*Member
}

// newCluster starts n members from one InitialCluster; options adjust every member's Config.
func newCluster(t testing.TB, n int, options ...func(*Config)) *testCluster {
	t.Helper()
	for attempt := 0; ; attempt++ {
		c, err := tryCluster(t, n, options)
		if err == nil {
			t.Cleanup(c.closeAll)
			return c
		}
		if attempt < 3 && strings.Contains(err.Error(), "address already in use") {
			continue
		}
		t.Fatalf("start %d-member cluster: %v", n, err)
	}
}

func tryCluster(t testing.TB, n int, options []func(*Config)) (*testCluster, error) {
	dir := t.TempDir()
	urls := freeURLs(t, 2*n)
	var initial []string
	for i := range n {
		initial = append(initial, fmt.Sprintf("m%d=%s", i+1, urls[2*i]))
	}
	c := &testCluster{t: t, dir: dir, members: make([]*Member, n)}
	for i := range n {
		cfg := testConfig(t, dir, fmt.Sprintf("m%d", i+1), urls[2*i], urls[2*i+1], strings.Join(initial, ","))
		for _, o := range options {
			o(&cfg)
		}
		c.cfgs = append(c.cfgs, cfg)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { c.members[i], errs[i] = Start(t.Context(), c.cfgs[i]) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			c.closeAll()
			return nil, err
		}
	}
	return c, nil
}

func (c *testCluster) closeAll() {
	var wg sync.WaitGroup
	for i, m := range c.members {
		if m != nil {
			wg.Go(func() { m.Close() })
			c.members[i] = nil
		}
	}
	wg.Wait()
}

// stop closes member i (a crash, as far as the others can tell).
func (c *testCluster) stop(i int) {
	c.t.Helper()
	if err := c.members[i].Close(); err != nil {
		c.t.Fatalf("close %s: %v", c.cfgs[i].Name, err)
	}
	c.members[i] = nil
}

// restart re-runs Start with member i's config.
func (c *testCluster) restart(i int) *Member {
	c.t.Helper()
	m, err := Start(c.t.Context(), c.cfgs[i])
	if err != nil {
		c.t.Fatalf("restart %s: %v", c.cfgs[i].Name, err)
	}
	c.members[i] = m
	return m
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ctxTimeout(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}
