package coord_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/coord"
)

// folder is a test state: the nodes of a folder, and one line per event folded.
type folder struct {
	nodes map[string]string
	story []string
}

func foldFolder(s *folder, ev coord.Event) {
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		s.nodes[ev.Name] = string(ev.Value)
		s.story = append(s.story, fmt.Sprintf("%v %s=%s", ev.Type, ev.Name, ev.Value))
	case coord.EventDeleted:
		delete(s.nodes, ev.Name)
		s.story = append(s.story, fmt.Sprintf("%v %s", ev.Type, ev.Name))
	case coord.EventResync:
		clear(s.nodes)
		var kids []string
		for _, c := range ev.Children {
			s.nodes[c.Name] = string(c.Value)
			kids = append(kids, c.Name+"="+string(c.Value))
		}
		s.story = append(s.story, "resync "+strings.Join(kids, " "))
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestMirrorFoldsEventsAndWakesWaiters(t *testing.T) {
	m := coord.NewMirror(folder{nodes: map[string]string{}}, func(s *folder, ev coord.Event) func() {
		foldFolder(s, ev)
		return nil
	})
	nodes := func() map[string]string {
		var out map[string]string
		m.Read(func(s *folder) { out = maps.Clone(s.nodes) })
		return out
	}
	if m.Listed() {
		t.Fatal("a new mirror is listed")
	}
	changed := m.Changed()
	m.Apply(coord.Event{Type: coord.EventCreated, Name: "a", Value: []byte("1")})
	if !isClosed(changed) {
		t.Fatal("Changed not closed by Apply")
	}
	if m.Listed() {
		t.Fatal("listed before any EventResync")
	}
	changed = m.Changed()
	if isClosed(changed) {
		t.Fatal("the next Changed is closed before the next Apply")
	}
	m.Apply(coord.Event{Type: coord.EventResync, Children: []coord.Child{{Name: "b", Value: []byte("2")}}})
	if !isClosed(changed) || !m.Listed() {
		t.Fatalf("after a resync: changed closed %v, listed %v", isClosed(changed), m.Listed())
	}
	if got := nodes(); !maps.Equal(got, map[string]string{"b": "2"}) {
		t.Fatalf("a resync must replace the state: %v", got)
	}
	changed = m.Changed()
	m.Update(func(s *folder) { s.nodes["local"] = "x" })
	if isClosed(changed) {
		t.Fatal("a local Update woke the waiters of Changed")
	}
	if got := nodes(); !maps.Equal(got, map[string]string{"b": "2", "local": "x"}) {
		t.Fatalf("after Update: %v", got)
	}
}

// The fold's after runs once Apply has released the lock: it can read and
// update the mirror (it would deadlock otherwise), it sees the state and
// listed flag it follows, and the waiters of Changed are already awake.
func TestMirrorCallsAfterOutsideItsLock(t *testing.T) {
	var m *coord.Mirror[int]
	type seen struct {
		count   int
		listed  bool
		wakened bool
	}
	afters := make(chan seen, 1)
	var before <-chan struct{}
	m = coord.NewMirror(0, func(n *int, ev coord.Event) func() {
		*n++
		if ev.Type == coord.EventDeleted {
			return nil
		}
		return func() {
			var s seen
			m.Read(func(n *int) { s.count = *n })
			m.Update(func(n *int) { *n += 10 })
			s.listed, s.wakened = m.Listed(), isClosed(before)
			afters <- s
		}
	})
	apply := func(ev coord.Event) {
		t.Helper()
		before = m.Changed()
		done := make(chan struct{})
		go func() { defer close(done); m.Apply(ev) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Apply(%v) did not return: its after ran under the mirror's lock", ev.Type)
		}
	}
	apply(coord.Event{Type: coord.EventResync})
	if s := <-afters; s != (seen{count: 1, listed: true, wakened: true}) {
		t.Fatalf("after the resync saw %+v", s)
	}
	apply(coord.Event{Type: coord.EventDeleted}) // a nil after is not called
	apply(coord.Event{Type: coord.EventCreated})
	if s := <-afters; s.count != 13 {
		t.Fatalf("after the third event saw %d, want 13 (3 folds, one Update of 10)", s.count)
	}
}

func waitDone(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("not within 10s: %s", what)
	}
}

// waitMirror waits, with a deadline, until cond holds for the mirror's state.
func waitMirror[S any](t *testing.T, m *coord.Mirror[S], what string, cond func(s *S) bool) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		changed := m.Changed()
		var ok bool
		var state string
		m.Read(func(s *S) { ok, state = cond(s), fmt.Sprintf("%+v", *s) })
		if ok {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("not within 10s: %s; state %s", what, state)
		}
	}
}

// A mirror followed from a real member gets the listing as a resync, a
// second resync when the watch cannot start where the listing ended (the
// revisions in between were compacted), then each change; it stops when its
// client is closed.
func TestMirrorFollowsAFolderThroughACompaction(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)
	tree.Create(ctx, "/f/a", []byte("1"))
	tree.Create(ctx, "/f/a/deep", nil) // a grandchild: not in a children mirror
	tree.Create(ctx, "/fx", nil)       // a sibling sharing the prefix
	compactOnce := func() {
		// Runs between the listing and the watch (an after runs before
		// Apply returns): change the folder and compact past the listing.
		tree.Create(ctx, "/f/b", []byte("2"))
		tree.Delete(ctx, "/f/a")
		resp, err := cli.Get(ctx, "/f")
		if err == nil {
			_, err = cli.Compact(ctx, resp.Header.Revision)
		}
		if err != nil {
			t.Errorf("compact: %v", err)
		}
	}
	m := coord.NewMirror(folder{nodes: map[string]string{}}, func(s *folder, ev coord.Event) func() {
		foldFolder(s, ev)
		if len(s.story) == 1 {
			return compactOnce
		}
		return nil
	})
	fcli, err := newClient([]string{c.cfgs[0].ClientURL})
	if err != nil {
		t.Fatal(err)
	}
	defer fcli.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { m.Follow(ctx, coord.NewTree(fcli), "/f", coord.WatchOptions{}, testLogger()) })

	waitMirror(t, m, "the listing, then a resync after the compaction", func(s *folder) bool { return len(s.story) >= 2 })
	tree.Set(ctx, "/f/b", []byte("3"))
	tree.Create(ctx, "/f/c", nil)
	tree.Delete(ctx, "/f/b")
	waitMirror(t, m, "three changes", func(s *folder) bool { return len(s.story) >= 5 })
	m.Read(func(s *folder) {
		want := []string{"resync a=1", "resync b=2", "changed b=3", "created c=", "deleted b"}
		if !slices.Equal(s.story, want) || !maps.Equal(s.nodes, map[string]string{"c": ""}) {
			t.Errorf("mirror saw %q and holds %v, want %q and c", s.story, s.nodes, want)
		}
	})
	following := make(chan struct{})
	go func() { wg.Wait(); close(following) }()
	fcli.Close()
	waitDone(t, following, "Follow returns once its client is closed")
	if ctx.Err() != nil {
		t.Fatal("Follow outlived its deadline instead of stopping with its client")
	}
}
