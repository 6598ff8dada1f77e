package coord_test

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

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"flightalliance/coord/member"
	"flightalliance/internal/freeport"
)

// The recipes are tested against real embedded members, as the airline server runs them: this
// file starts them through coord/member. Being an external test package is what lets it: coord
// itself must not import the member (coord/member imports coord). The member's own harness, which
// also reaches into its internals, is coord/member's cluster_test.go.

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
func testConfig(dir, name, peer, client, initial string) member.Config {
	return member.Config{
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
	cfgs    []member.Config
	members []*member.Member
}

// newCluster starts n members from one InitialCluster.
func newCluster(t testing.TB, n int) *testCluster {
	t.Helper()
	for attempt := 0; ; attempt++ {
		c, err := tryCluster(t, n)
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

func tryCluster(t testing.TB, n int) (*testCluster, error) {
	dir := t.TempDir()
	urls := freeURLs(t, 2*n)
	var initial []string
	for i := range n {
		initial = append(initial, fmt.Sprintf("m%d=%s", i+1, urls[2*i]))
	}
	c := &testCluster{t: t, dir: dir, members: make([]*member.Member, n)}
	for i := range n {
		c.cfgs = append(c.cfgs, testConfig(dir, fmt.Sprintf("m%d", i+1), urls[2*i], urls[2*i+1], strings.Join(initial, ",")))
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { c.members[i], errs[i] = member.Start(t.Context(), c.cfgs[i]) })
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
func (c *testCluster) restart(i int) *member.Member {
	c.t.Helper()
	m, err := member.Start(c.t.Context(), c.cfgs[i])
	if err != nil {
		c.t.Fatalf("restart %s: %v", c.cfgs[i].Name, err)
	}
	c.members[i] = m
	return m
}

// newClient is a client of its own to the given members, as a second process would have: its
// connections are not the member's.
func newClient(endpoints []string) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{
		Endpoints:            endpoints,
		DialTimeout:          2 * time.Second,
		DialKeepAliveTime:    2 * time.Second,
		DialKeepAliveTimeout: 2 * time.Second,
		Logger:               zap.NewNop(),
	})
}

// electionTimeout is the election timeout cfg asks for (0: the member's default applies).
func electionTimeout(cfg member.Config) time.Duration {
	return time.Duration(cfg.ElectionMs) * time.Millisecond
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
