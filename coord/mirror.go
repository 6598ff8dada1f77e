package coord

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Follow feeds apply with a folder of the tree until ctx ends: one listing,
// delivered as an EventResync (Path dir, Revision the revision read,
// Children the nodes), then every event of a watch from the revision after
// it. The listing and the watch form one ordered stream, so a state folded
// from them is the folder's state at some revision. The watch re-lists by
// itself when it loses its place to a compaction (another EventResync).
//
// With opts.Recursive every node below dir is followed, named by its path
// below dir ("LY/LY001"); otherwise the direct children are (Children is
// implied). opts.FromRevision is ignored: the listing says where to start.
//
// A listing that fails is logged (warn, with dir and err) and tried again
// after 100 ms, doubling to at most 3 s; without a quorum Follow waits. If
// the watch ends while ctx is live, Follow lists again. It gives up early
// only on what can never succeed: an invalid dir, or t's client closed.
// apply runs on Follow's goroutine, one event at a time; a slow apply holds
// the watch back, it loses nothing.
func Follow(ctx context.Context, t *Tree, dir string, opts WatchOptions, log *slog.Logger, apply func(Event)) {
	if err := checkPath(dir, true); err != nil {
		log.Error("cannot follow an invalid path of the coordination tree", "dir", dir, "err", err)
		return
	}
	f := follower{dir: dir, log: log, closed: func() bool { return t.cli.Ctx().Err() != nil }}
	if opts.Recursive {
		f.list = func(ctx context.Context) ([]Child, int64, error) { return t.Descendants(ctx, dir) }
	} else {
		opts.Children = true
		f.list = func(ctx context.Context) ([]Child, int64, error) { return t.ChildrenData(ctx, dir, 0) }
	}
	f.watch = func(ctx context.Context, from int64) <-chan Event {
		opts.FromRevision = from
		return t.Watch(ctx, dir, opts)
	}
	f.run(ctx, apply)
}

// follower is Follow's loop with its I/O injected, so that tests can drive
// it with fakes.
type follower struct {
	dir    string
	list   func(ctx context.Context) ([]Child, int64, error)
	watch  func(ctx context.Context, from int64) <-chan Event
	closed func() bool // the client is closed: nothing can be listed or watched again
	log    *slog.Logger
}

func (f follower) run(ctx context.Context, apply func(Event)) {
	for attempt := 0; ctx.Err() == nil; {
		if f.closed() {
			// Checked first: a listing through a closed client takes
			// seconds to fail.
			f.log.Info("the coordination tree's client is closed; no longer following", "dir", f.dir)
			return
		}
		children, rev, err := f.list(ctx)
		if err != nil {
			if ctx.Err() != nil || f.closed() {
				continue
			}
			f.log.Warn("listing a folder of the coordination tree failed; retrying", "dir", f.dir, "err", err)
			if !sleep(ctx, followBackoff(attempt)) {
				return
			}
			attempt++
			continue
		}
		attempt = 0
		apply(Event{Type: EventResync, Path: f.dir, Revision: rev, Children: children})
		for ev := range f.watch(ctx, rev+1) {
			apply(ev)
		}
		// The watch ended: ctx ended, or the client was closed.
	}
}

// followBackoff is the wait after attempt listings failed in a row (counted
// from 0): 100 ms, doubling, at most 3 s.
func followBackoff(attempt int) time.Duration {
	return min(100*time.Millisecond<<min(attempt, 5), 3*time.Second)
}

// sleep waits d, or until ctx ends; it reports whether ctx is still live.
func sleep(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// Mirror is a local copy of a folder of the tree, kept as a state S by
// folding the folder's events into it (see Follow): a set of names, a book
// of counters, a view of machines. It answers from memory, so a reader sees
// the folder as of the last event applied, and keeps the last state known
// while etcd does not answer.
//
// One RWMutex guards the state, whether the folder has been listed, and the
// channel closed at the next change. The fold runs under the write lock;
// Read and Update run their func under the lock too. None of them may call
// back into the mirror (it would deadlock) or call out to anything that
// might wait: what must happen because of a change — a callback, a send —
// goes in the func the fold returns, which Apply calls after releasing the
// lock.
type Mirror[S any] struct {
	fold func(s *S, ev Event) (after func())

	mu      sync.RWMutex
	state   S
	listed  bool          // an EventResync has been applied
	changed chan struct{} // closed and replaced at every Apply
}

// NewMirror returns a mirror holding initial, not yet listed, kept by fold:
// fold changes *s to account for ev (an EventResync replaces the state
// wholesale) and returns what to do about it outside the lock, or nil.
func NewMirror[S any](initial S, fold func(s *S, ev Event) (after func())) *Mirror[S] {
	return &Mirror[S]{fold: fold, state: initial, changed: make(chan struct{})}
}

// Apply folds ev into the state under the write lock, counts the mirror
// listed once an EventResync is applied and wakes the waiters of Changed;
// then, with the lock released, it calls what the fold returned. Follow
// calls Apply one event at a time, so the afters run in event order.
func (m *Mirror[S]) Apply(ev Event) {
	if after := m.foldEvent(ev); after != nil {
		after()
	}
}

func (m *Mirror[S]) foldEvent(ev Event) (after func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	after = m.fold(&m.state, ev)
	if ev.Type == EventResync {
		m.listed = true
	}
	close(m.changed)
	m.changed = make(chan struct{})
	return after
}

// Read calls f with the state under the read lock. f must only read *s,
// must not keep it (or maps and slices in it) past its return, and must not
// call back into the mirror.
func (m *Mirror[S]) Read(f func(s *S)) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	f(&m.state)
}

// Update calls f with the state under the write lock, for a local write
// that is no event of the folder (taking and clearing a flag the fold set);
// it does not wake the waiters of Changed. f must not call back into the
// mirror.
func (m *Mirror[S]) Update(f func(s *S)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(&m.state)
}

// Listed reports whether the folder has been listed at least once, that is
// whether the state is the folder's rather than the initial one.
func (m *Mirror[S]) Listed() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.listed
}

// Changed returns a channel closed at the next Apply. Take it before
// reading the state, so that a change between the two is not missed.
func (m *Mirror[S]) Changed() <-chan struct{} {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.changed
}

// Follow keeps the mirror from dir until ctx ends: Follow with m.Apply.
func (m *Mirror[S]) Follow(ctx context.Context, t *Tree, dir string, opts WatchOptions, log *slog.Logger) {
	Follow(ctx, t, dir, opts, log, m.Apply)
}
