package coord_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	"flightalliance/coord"
)

// logRecords is a slog handler that passes every record on.
type logRecords chan slog.Record

func (l logRecords) Enabled(context.Context, slog.Level) bool      { return true }
func (l logRecords) Handle(_ context.Context, r slog.Record) error { l <- r.Clone(); return nil }
func (l logRecords) WithAttrs([]slog.Attr) slog.Handler            { return l }
func (l logRecords) WithGroup(string) slog.Handler                 { return l }

func nextRecord(t *testing.T, logs logRecords) (slog.Level, map[string]string) {
	t.Helper()
	select {
	case r := <-logs:
		attrs := map[string]string{}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
		return r.Level, attrs
	case <-time.After(10 * time.Second):
		t.Fatal("nothing logged within 10s")
	}
	return 0, nil
}

func TestFollowRetriesAFailedListing(t *testing.T) {
	logs := make(logRecords, 8)
	failures := 2
	watchedFrom := make(chan int64, 1)
	events := make(chan coord.Event)
	f := coord.Follower{Dir: "/f", Log: slog.New(logs), Closed: func() bool { return false },
		List: func(context.Context) ([]coord.Child, int64, error) {
			if failures > 0 {
				failures--
				return nil, 0, errors.New("no quorum")
			}
			return []coord.Child{{Name: "a"}}, 7, nil
		},
		Watch: func(_ context.Context, from int64) <-chan coord.Event { watchedFrom <- from; return events },
	}
	ctx, cancel := context.WithCancel(t.Context())
	applied := make(chan coord.Event, 4)
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); f.Run(ctx, func(ev coord.Event) { applied <- ev }) }()
	for range 2 {
		if level, attrs := nextRecord(t, logs); level != slog.LevelWarn || attrs["dir"] != "/f" || attrs["err"] != "no quorum" {
			t.Fatalf("a failed listing logged %v %v, want a warning with dir and err", level, attrs)
		}
	}
	ev := next(t, applied)
	if ev.Type != coord.EventResync || ev.Path != "/f" || ev.Revision != 7 || len(ev.Children) != 1 {
		t.Fatalf("first event %+v, want the listing as a resync of /f at 7", ev)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond {
		t.Fatalf("two failed listings retried after %v, want backoff of 100 ms + 200 ms", waited)
	}
	if from := <-watchedFrom; from != 8 {
		t.Fatalf("watch from %d, want 8: the revision after the listing", from)
	}
	events <- coord.Event{Type: coord.EventCreated, Name: "b"}
	if ev := next(t, applied); ev.Type != coord.EventCreated || ev.Name != "b" {
		t.Fatalf("watched event applied as %+v", ev)
	}
	cancel()
	close(events) // as Tree.Watch does when ctx ends
	waitDone(t, done, "Follow returns when ctx ends")
	if got := []time.Duration{coord.FollowBackoff(0), coord.FollowBackoff(1), coord.FollowBackoff(4), coord.FollowBackoff(5), coord.FollowBackoff(40)}; !slices.Equal(got,
		[]time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 1600 * time.Millisecond, 3 * time.Second, 3 * time.Second}) {
		t.Fatalf("backoff %v", got)
	}
}

// When the watch ends while ctx is live, Follow lists again; once the client
// is closed it stops instead of retrying what can never succeed.
func TestFollowListsAgainWhenTheWatchEnds(t *testing.T) {
	logs := make(logRecords, 8)
	revisions := []int64{5, 9}
	var watchedFrom []int64
	clientClosed := false
	f := coord.Follower{Dir: "/f", Log: slog.New(logs), Closed: func() bool { return clientClosed },
		List: func(context.Context) ([]coord.Child, int64, error) {
			if clientClosed {
				t.Error("listed through a closed client")
				return nil, 0, errors.New("grpc: the client connection is closing")
			}
			rev := revisions[0]
			revisions = revisions[1:]
			return nil, rev, nil
		},
		Watch: func(_ context.Context, from int64) <-chan coord.Event {
			watchedFrom = append(watchedFrom, from)
			clientClosed = len(watchedFrom) == 2
			ch := make(chan coord.Event)
			close(ch) // the watch ends at once, as when its client is closed
			return ch
		},
	}
	applied := make(chan coord.Event, 4)
	done := make(chan struct{})
	go func() { defer close(done); f.Run(t.Context(), func(ev coord.Event) { applied <- ev }) }()
	waitDone(t, done, "Follow stops once its client is closed")
	close(applied)
	var got []string
	for ev := range applied {
		got = append(got, fmt.Sprintf("%v@%d", ev.Type, ev.Revision))
	}
	if want := []string{"resync@5", "resync@9"}; !slices.Equal(got, want) || !slices.Equal(watchedFrom, []int64{6, 10}) {
		t.Fatalf("applied %v watching from %v, want %v from [6 10]", got, watchedFrom, want)
	}
	if level, attrs := nextRecord(t, logs); level != slog.LevelInfo || attrs["dir"] != "/f" {
		t.Fatalf("stopping logged %v %v, want an info with dir", level, attrs)
	}
}

// A recursive follow names every node by its path below the folder, in the
// listing and in the events.
func TestFollowRecursive(t *testing.T) {
	c := newCluster(t, 1)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	tree := coord.NewTree(c.members[0].Client())
	tree.Create(ctx, "/s/LY/LY1", []byte("3"))
	tree.Create(ctx, "/s/UA/UA9", []byte("1"))
	tree.Create(ctx, "/sx/LY1", nil)
	applied := make(chan coord.Event, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		coord.Follow(ctx, tree, "/s", coord.WatchOptions{Recursive: true}, testLogger(), func(ev coord.Event) { applied <- ev })
	}()
	ev := next(t, applied)
	var names []string
	for _, c := range ev.Children {
		names = append(names, c.Name+"="+string(c.Value))
	}
	if ev.Type != coord.EventResync || !slices.Equal(names, []string{"LY/LY1=3", "UA/UA9=1"}) {
		t.Fatalf("listing %v %v, want a resync of LY/LY1=3 UA/UA9=1", ev.Type, names)
	}
	tree.Set(ctx, "/s/LY/LY1", []byte("4"))
	tree.Create(ctx, "/s/LY/LY2", nil)
	for _, want := range []string{"changed LY/LY1", "created LY/LY2"} {
		if ev := next(t, applied); fmt.Sprintf("%v %s", ev.Type, ev.Name) != want {
			t.Fatalf("event %v %s, want %s", ev.Type, ev.Name, want)
		}
	}
	cancel()
	waitDone(t, done, "Follow returns when ctx ends")
}
