package coord

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// EventType says what happened to a node.
type EventType int

// Event types. EventResync replaces the watcher's state wholesale: it is
// sent when the revision to resume from was compacted away, so the changes
// in between can no longer be replayed.
const (
	EventCreated EventType = iota + 1
	EventChanged
	EventDeleted
	EventResync
)

func (t EventType) String() string {
	switch t {
	case EventCreated:
		return "created"
	case EventChanged:
		return "changed"
	case EventDeleted:
		return "deleted"
	case EventResync:
		return "resync"
	}
	return fmt.Sprintf("EventType(%d)", int(t))
}

// Event is one change seen by a Watch. For EventDeleted, Value is empty
// and Stat.ModRevision is the deletion's revision. For EventResync, Path is
// the watched path, Revision the revision the state was read at, and
// Children the current state: the children of the path for a children
// watch, the node itself (or nothing) for a node watch.
type Event struct {
	Type     EventType
	Path     string
	Name     string
	Value    []byte
	Revision int64
	Stat     Stat
	Children []Child
}

// WatchOptions selects what a Watch reports. Children watches the direct
// children of the path instead of the node itself (grandchildren are not
// reported). Recursive watches every descendant; its events' Name is the
// path below the watched one ("enter/m1"). FromRevision replays changes
// from that revision on (inclusive); 0 means changes after the watch is
// established.
type WatchOptions struct {
	Children     bool
	Recursive    bool
	FromRevision int64
}

// errCompacted means the revision to resume from is gone.
var errCompacted = errors.New("watch revision compacted")

// Watch reports changes of path (or of its children) in revision order,
// each exactly once, until ctx ends; then the channel is closed. It
// survives losing the member it is connected to: the watch is re-opened on
// another endpoint of the client from the revision after the last one
// delivered. If that revision was compacted it emits one EventResync with
// the current state and carries on from there. A watch on an invalid path
// returns a closed channel; the channel is also closed when the client is.
func (t *Tree) Watch(ctx context.Context, path string, opts WatchOptions) <-chan Event {
	out := make(chan Event, 16)
	if err := checkPath(path, opts.Children || opts.Recursive); err != nil {
		close(out)
		return out
	}
	w := &watcher{cli: t.cli, path: path, children: opts.Children || opts.Recursive,
		recursive: opts.Recursive, next: opts.FromRevision, out: out}
	go w.run(ctx)
	return out
}

type watcher struct {
	cli       *clientv3.Client
	path      string
	children  bool  // watch below path, not path itself
	recursive bool  // all descendants, not only children
	next      int64 // first revision not yet delivered; 0 = not established yet
	out       chan<- Event
}

func (w *watcher) run(ctx context.Context) {
	defer close(w.out)
	backoff := 50 * time.Millisecond
	for ctx.Err() == nil {
		err := w.watchOnce(ctx)
		if ctx.Err() != nil || w.cli.Ctx().Err() != nil {
			return // done, or the client was closed: nothing to resume with
		}
		if errors.Is(err, errCompacted) {
			if err = w.resync(ctx); err == nil {
				backoff = 50 * time.Millisecond
				continue
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// watchOnce opens one etcd watch and delivers its events until it fails.
// WithRequireLeader makes a member that lost its leader end the watch, so
// that it is re-opened elsewhere instead of silently stalling.
func (w *watcher) watchOnce(ctx context.Context) error {
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	key := w.path
	opts := []clientv3.OpOption{clientv3.WithCreatedNotify()}
	if w.children {
		key = childPrefix(w.path)
		opts = append(opts, clientv3.WithPrefix())
	}
	if w.next > 0 {
		opts = append(opts, clientv3.WithRev(w.next))
	}
	for resp := range w.cli.Watch(wctx, key, opts...) {
		if resp.CompactRevision != 0 {
			return errCompacted
		}
		if err := resp.Err(); err != nil {
			return err
		}
		if resp.Created && w.next == 0 {
			w.next = resp.Header.Revision + 1
		}
		for _, ev := range resp.Events {
			if e, ok := w.event(ev); ok {
				select {
				case w.out <- e:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			w.next = ev.Kv.ModRevision + 1
		}
	}
	return errors.New("watch channel closed")
}

func (w *watcher) event(ev *clientv3.Event) (Event, bool) {
	kv := ev.Kv
	key := string(kv.Key)
	name, ok := w.name(key)
	if !ok {
		return Event{}, false
	}
	e := Event{Path: key, Name: name, Revision: kv.ModRevision,
		Stat: statOf(kv.Version, kv.CreateRevision, kv.ModRevision, kv.Lease)}
	switch {
	case ev.Type == mvccpb.DELETE:
		e.Type = EventDeleted
	case kv.Version == 1:
		e.Type, e.Value = EventCreated, kv.Value
	default:
		e.Type, e.Value = EventChanged, kv.Value
	}
	return e, true
}

// resync reads the current state and emits it as one EventResync.
func (w *watcher) resync(ctx context.Context) error {
	key := w.path
	var opts []clientv3.OpOption
	if w.children {
		key = childPrefix(w.path)
		opts = append(opts, clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	}
	resp, err := w.cli.Get(ctx, key, opts...)
	if err != nil {
		return fmt.Errorf("coord: re-list %s after compaction: %w", w.path, err)
	}
	e := Event{Type: EventResync, Path: w.path, Name: baseName(w.path), Revision: resp.Header.Revision}
	for _, kv := range resp.Kvs {
		name, ok := w.name(string(kv.Key))
		if !ok {
			continue
		}
		e.Children = append(e.Children, Child{Name: name, Value: kv.Value,
			Stat: statOf(kv.Version, kv.CreateRevision, kv.ModRevision, kv.Lease)})
	}
	select {
	case w.out <- e:
	case <-ctx.Done():
		return ctx.Err()
	}
	w.next = resp.Header.Revision + 1
	return nil
}

// name is the event name of key, and false for keys this watch ignores.
func (w *watcher) name(key string) (string, bool) {
	switch {
	case w.recursive:
		name := strings.TrimPrefix(key, childPrefix(w.path))
		return name, name != key && name != ""
	case w.children:
		return childName(childPrefix(w.path), key)
	}
	return baseName(key), key == w.path
}
