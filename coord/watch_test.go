package coord_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"flightalliance/coord"
)

// next receives one event or fails the test.
func next(t testing.TB, events <-chan coord.Event) coord.Event {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("watch channel closed")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
	}
	return coord.Event{}
}

func TestWatchChildrenAndNode(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	tree := coord.NewTree(c.members[0].Client())
	_, rev, err := tree.Children(ctx, "/w")
	if err != nil {
		t.Fatal(err)
	}
	children := tree.Watch(ctx, "/w", coord.WatchOptions{Children: true, FromRevision: rev + 1})
	node := tree.Watch(ctx, "/w/a", coord.WatchOptions{FromRevision: rev + 1})
	first, _ := tree.Create(ctx, "/w/a", []byte("1"))
	tree.Create(ctx, "/w/a/grandchild", nil)
	tree.Set(ctx, "/w/a", []byte("2"))
	tree.Delete(ctx, "/w/a")
	want := []struct {
		typ   coord.EventType
		value string
	}{{coord.EventCreated, "1"}, {coord.EventChanged, "2"}, {coord.EventDeleted, ""}}
	for _, ch := range []<-chan coord.Event{children, node} {
		for i, w := range want {
			ev := next(t, ch)
			if ev.Type != w.typ || string(ev.Value) != w.value || ev.Name != "a" || ev.Path != "/w/a" {
				t.Fatalf("event %d: %+v, want %v %q on a", i, ev, w.typ, w.value)
			}
		}
	}
	// Replay from a revision.
	replay := tree.Watch(ctx, "/w/a", coord.WatchOptions{FromRevision: first.CreateRevision})
	for i, w := range want {
		if ev := next(t, replay); ev.Type != w.typ {
			t.Fatalf("replayed event %d: %+v, want %v", i, ev, w.typ)
		}
	}
	// Compaction: resuming from a compacted revision re-lists.
	tree.Create(ctx, "/w/b", []byte("b"))
	resp, _ := c.members[0].Client().Get(ctx, "/w/b")
	if _, err := c.members[0].Client().Compact(ctx, resp.Header.Revision); err != nil {
		t.Fatal(err)
	}
	resync := tree.Watch(ctx, "/w", coord.WatchOptions{Children: true, FromRevision: first.CreateRevision})
	ev := next(t, resync)
	if ev.Type != coord.EventResync || len(ev.Children) != 1 || ev.Children[0].Name != "b" {
		t.Fatalf("after compaction: %+v, want a resync with child b", ev)
	}
	tree.Create(ctx, "/w/c", nil)
	if ev := next(t, resync); ev.Type != coord.EventCreated || ev.Name != "c" {
		t.Fatalf("after resync: %+v", ev)
	}
	wctx, cancel := context.WithCancel(ctx)
	closing := tree.Watch(wctx, "/w", coord.WatchOptions{Children: true})
	cancel()
	eventually(t, 5*time.Second, "watch closed when ctx ends", func() bool {
		select {
		case _, ok := <-closing:
			return !ok
		default:
			return false
		}
	})
}

// A watch through a client of two members keeps every change, once and in
// order, while each of those members in turn is stopped and restarted.
func TestWatchResumesAcrossMemberRestarts(t *testing.T) {
	c := newCluster(t, 3)
	ctx := ctxTimeout(t, 90*time.Second)
	wcli, err := newClient([]string{c.cfgs[2].ClientURL, c.cfgs[1].ClientURL})
	if err != nil {
		t.Fatal(err)
	}
	defer wcli.Close()
	writer := coord.NewTree(c.members[0].Client())
	_, rev, err := writer.Children(ctx, "/r")
	if err != nil {
		t.Fatal(err)
	}
	events := coord.NewTree(wcli).Watch(ctx, "/r", coord.WatchOptions{Children: true, FromRevision: rev + 1})
	n := 0
	write := func(k int) {
		for range k {
			if _, err := writer.Create(ctx, fmt.Sprintf("/r/%04d", n), nil); err != nil {
				t.Fatalf("write %d: %v", n, err)
			}
			n++
		}
	}
	write(5)
	for _, i := range []int{2, 1} {
		c.stop(i)
		write(5)
		c.restart(i)
		write(5)
	}
	for i := range n {
		ev := next(t, events)
		if want := fmt.Sprintf("%04d", i); ev.Type != coord.EventCreated || ev.Name != want {
			t.Fatalf("event %d: %v %s, want created %s", i, ev.Type, ev.Name, want)
		}
	}
	select {
	case ev := <-events:
		t.Fatalf("extra event %+v", ev)
	case <-time.After(300 * time.Millisecond):
	}
}
