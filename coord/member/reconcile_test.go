package member

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/internal/logsink"
)

// TestReconcilerProbesOnceMoreBeforeRemoving: a member the leader has seen unreachable past its
// grace, but which answers the probe taken right before its removal — a partition healed during
// the pass — keeps its place; one that fails that probe too is removed, and the removal's log
// line says when that last probe began (last_probe_at), so a member healed after it can tell.
func TestReconcilerProbesOnceMoreBeforeRemoving(t *testing.T) {
	var logs logsink.Buffer
	c := newCluster(t, 3, func(cfg *Config) {
		cfg.DeadGrace = 2 * time.Second
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	ctx := ctxTimeout(t, time.Minute)
	var leader *Member
	eventually(t, 20*time.Second, "a leader", func() bool {
		for _, m := range c.members {
			if uint64(m.etcd.Server.Leader()) == m.id {
				leader = m
				return true
			}
		}
		return false
	})
	target := c.members[slices.IndexFunc(c.members, func(m *Member) bool { return m != leader })]
	isMember := func() bool {
		for _, mb := range leader.etcd.Server.Cluster().Members() {
			if uint64(mb.ID) == target.id {
				return true
			}
		}
		return false
	}
	down := errors.New("probe failed")
	// probe fails the target's probes: all of them, or the pass's only (it heals after).
	var mu sync.Mutex
	var passProbe, lastProbe time.Time // when the target's last two probes began
	probe := func(heals bool) (func(context.Context, []string) error, *int) {
		probes := 0
		return func(_ context.Context, peerURLs []string) error {
			if !slices.Contains(peerURLs, target.cfg.PeerURL) {
				return nil
			}
			mu.Lock()
			defer mu.Unlock()
			passProbe, lastProbe = lastProbe, time.Now()
			probes++
			if heals && probes > 1 {
				return nil
			}
			return down
		}, &probes
	}
	unreachableForAMinute := func() *unreachables {
		reach := newUnreachables()
		reach.observe(target.id, time.Now().Add(-time.Minute), down, leader.cfg.DeadGrace)
		return reach
	}

	healing, probes := probe(true)
	leader.reconcileOnce(ctx, healing, unreachableForAMinute())
	if !isMember() {
		t.Fatal("the target answered the probe before its removal and was removed all the same")
	}
	if *probes != 2 {
		t.Fatalf("the target was probed %d times, want twice (the pass, then before removing it)", *probes)
	}
	// etcd refuses to remove a voter while the others have been connected for less than its
	// health interval (5 s: "unhealthy cluster"), as they may be this soon after the start.
	eventually(t, 30*time.Second, "the target, failing every probe past its grace, removed", func() bool {
		failing, _ := probe(false)
		leader.reconcileOnce(ctx, failing, unreachableForAMinute())
		return !isMember()
	})
	line := logs.Last("removes unreachable member")
	_, v, ok := strings.Cut(line, " last_probe_at=")
	v, _, _ = strings.Cut(v, " ")
	at, err := time.Parse(time.RFC3339Nano, v)
	mu.Lock()
	defer mu.Unlock()
	if !ok || err != nil || !at.After(passProbe) || at.After(lastProbe) {
		t.Fatalf("removal's log line %q: last_probe_at %q (%v), want the start of the target's last probe, %s, not of the pass's, %s",
			line, v, err, lastProbe.UTC().Format(time.RFC3339Nano), passProbe.UTC().Format(time.RFC3339Nano))
	}
}
