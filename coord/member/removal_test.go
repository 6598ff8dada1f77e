package member

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// removalLog collects the removals reported to Config.OnRemoval by every member of a test.
type removalLog struct {
	mu  sync.Mutex
	got []Removal
}

func (l *removalLog) option(c *Config) { c.OnRemoval = l.add }

func (l *removalLog) add(r Removal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, r)
}

func (l *removalLog) all() []Removal {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.got)
}

// recorded is member's record of the removal of name, read from m's local copy.
func recorded(ctx context.Context, m *Member, name string) (Removal, bool) {
	rs, err := m.Removals(ctx)
	if err != nil {
		return Removal{}, false
	}
	for _, r := range rs {
		if r.Member == name {
			return r, true
		}
	}
	return Removal{}, false
}

func sameRemoval(a, b Removal) bool {
	return a.Member == b.Member && a.ID == b.ID && a.By == b.By && a.Reason == b.Reason && a.Error == b.Error &&
		a.At.Equal(b.At)
}

// A stopped member is removed by the leader's reconciler: the remover's OnRemoval hears
// "unreachable" with the probe's error, and every member can read who removed it and why.
func TestReconcilerReportsAndRecordsUnreachableRemoval(t *testing.T) {
	var log removalLog
	c := newCluster(t, 3, log.option, func(cfg *Config) { cfg.DeadGrace = 2 * time.Second })
	ctx := ctxTimeout(t, 60*time.Second)
	id3 := c.members[2].ID()
	c.stop(2)
	eventually(t, 20*time.Second, "m3's removal reported", func() bool { return len(log.all()) > 0 })
	got := log.all()
	if len(got) != 1 {
		t.Fatalf("removals reported: %+v, want only m3's", got)
	}
	r := got[0]
	if r.Member != "m3" || r.ID != fmt.Sprintf("%x", id3) || r.Reason != RemovedUnreachable || (r.By != "m1" && r.By != "m2") {
		t.Fatalf("reported %+v, want m3 (%x) removed as unreachable by m1 or m2", r, id3)
	}
	// The reason it was judged unreachable: the probe of its peer URL, which nothing answers.
	if !strings.Contains(r.Error, c.cfgs[2].PeerURL+"/members") {
		t.Fatalf("removal error %q does not name the probe of %s", r.Error, c.cfgs[2].PeerURL)
	}
	if time.Since(r.At) > time.Minute || r.At.After(time.Now()) {
		t.Fatalf("removal time %v is not now", r.At)
	}
	for _, m := range c.members[:2] {
		eventually(t, 10*time.Second, m.Name()+" reads m3's removal record", func() bool {
			rec, ok := recorded(ctx, m, "m3")
			return ok && sameRemoval(rec, r)
		})
	}
}

// A machine that lost its data joins again: it removes its stale former self (reason stale,
// by itself), and a clean leave then replaces that record with its own (reason leave).
func TestJoinerRecordsStaleRemovalAndLeaveItsOwn(t *testing.T) {
	var log removalLog
	c := newCluster(t, 3, log.option, func(cfg *Config) { cfg.DeadGrace = time.Minute })
	ctx := ctxTimeout(t, 120*time.Second)
	oldID := c.members[2].ID()
	c.stop(2)
	if err := os.RemoveAll(c.cfgs[2].DataDir); err != nil {
		t.Fatal(err)
	}
	m3 := c.restart(2)
	stale, ok := recorded(ctx, c.members[0], "m3")
	if !ok || stale.Reason != RemovedStale || stale.By != "m3" || stale.ID != fmt.Sprintf("%x", oldID) {
		// The joiner's write went through the cluster before it started: m1 may lag a little.
		eventually(t, 10*time.Second, "m1 reads m3's stale removal", func() bool {
			stale, ok = recorded(ctx, c.members[0], "m3")
			return ok && stale.Reason == RemovedStale && stale.By == "m3" && stale.ID == fmt.Sprintf("%x", oldID)
		})
	}
	if got := log.all(); len(got) != 1 || !sameRemoval(got[0], stale) {
		t.Fatalf("removals reported: %+v, want only %+v", got, stale)
	}
	newID := m3.ID()
	if err := m3.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	c.members[2] = nil
	eventually(t, 10*time.Second, "m1 reads m3's leave", func() bool {
		r, ok := recorded(ctx, c.members[0], "m3")
		return ok && r.Reason == RemovedLeave && r.By == "m3" && r.ID == fmt.Sprintf("%x", newID) && r.Error == ""
	})
	if got := log.all(); len(got) != 2 || got[1].Reason != RemovedLeave || got[1].Member != "m3" {
		t.Fatalf("removals reported: %+v, want the stale removal then the leave", got)
	}
	if rs, err := c.members[1].Removals(ctx); err != nil || len(rs) != 1 {
		t.Fatalf("m2 reads %+v, %v: want one record per removed name", rs, err)
	}
}
