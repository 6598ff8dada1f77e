package coord

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// next receives one event or fails the test.
func next(t testing.TB, events <-chan Event) Event {
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
	return Event{}
}

func TestWatchChildrenAndNode(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	tree := NewTree(c.members[0].Client())
	_, rev, err := tree.Children(ctx, "/w")
	if err != nil {
		t.Fatal(err)
	}
	children := tree.Watch(ctx, "/w", WatchOptions{Children: true, FromRevision: rev + 1})
	node := tree.Watch(ctx, "/w/a", WatchOptions{FromRevision: rev + 1})
	first, _ := tree.Create(ctx, "/w/a", []byte("1"))
	tree.Create(ctx, "/w/a/grandchild", nil)
	tree.Set(ctx, "/w/a", []byte("2"))
	tree.Delete(ctx, "/w/a")
	want := []struct {
		typ   EventType
		value string
	}{{EventCreated, "1"}, {EventChanged, "2"}, {EventDeleted, ""}}
	for _, ch := range []<-chan Event{children, node} {
		for i, w := range want {
			ev := next(t, ch)
			if ev.Type != w.typ || string(ev.Value) != w.value || ev.Name != "a" || ev.Path != "/w/a" {
				t.Fatalf("event %d: %+v, want %v %q on a", i, ev, w.typ, w.value)
			}
		}
	}
	// Replay from a revision.
	replay := tree.Watch(ctx, "/w/a", WatchOptions{FromRevision: first.CreateRevision})
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
	resync := tree.Watch(ctx, "/w", WatchOptions{Children: true, FromRevision: first.CreateRevision})
	ev := next(t, resync)
	if ev.Type != EventResync || len(ev.Children) != 1 || ev.Children[0].Name != "b" {
		t.Fatalf("after compaction: %+v, want a resync with child b", ev)
	}
	tree.Create(ctx, "/w/c", nil)
	if ev := next(t, resync); ev.Type != EventCreated || ev.Name != "c" {
		t.Fatalf("after resync: %+v", ev)
	}
	wctx, cancel := context.WithCancel(ctx)
	closing := tree.Watch(wctx, "/w", WatchOptions{Children: true})
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
	wcli, err := newClient(c.cfgs[2], []string{c.cfgs[2].ClientURL, c.cfgs[1].ClientURL})
	if err != nil {
		t.Fatal(err)
	}
	defer wcli.Close()
	writer := NewTree(c.members[0].Client())
	_, rev, err := writer.Children(ctx, "/r")
	if err != nil {
		t.Fatal(err)
	}
	events := NewTree(wcli).Watch(ctx, "/r", WatchOptions{Children: true, FromRevision: rev + 1})
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
		if want := fmt.Sprintf("%04d", i); ev.Type != EventCreated || ev.Name != want {
			t.Fatalf("event %d: %v %s, want created %s", i, ev.Type, ev.Name, want)
		}
	}
	select {
	case ev := <-events:
		t.Fatalf("extra event %+v", ev)
	case <-time.After(300 * time.Millisecond):
	}
}
