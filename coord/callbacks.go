package coord

import (
	"context"
	"fmt"
	"slices"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Callbacks calls registered functions on changes of paths: a thin layer
// over Watch. For each path, callbacks run one at a time, in revision
// order, each change once; node callbacks (created, removed, changed) and
// lock callbacks come from two watches and are not ordered with each
// other. The first registration on a path reads the current revision and
// watches from the next one, so no change after the registration returns
// is missed; later registrations join the running watch. Callbacks must
// not block for long: they hold up the path's later changes.
type Callbacks struct {
	t     *Tree
	mu    sync.Mutex
	paths map[string]*pathCallbacks
}

type callbackKind int

const (
	onCreated callbackKind = iota
	onRemoved
	onChanged
	onLockChanged
)

type pathCallbacks struct {
	mu      sync.Mutex
	fns     map[callbackKind][]func(Event)
	cleared bool
	node    context.CancelFunc
	lock    context.CancelFunc
}

// NewCallbacks returns an empty registry over t.
func NewCallbacks(t *Tree) *Callbacks {
	return &Callbacks{t: t, paths: map[string]*pathCallbacks{}}
}

// OnCreated calls fn when a node is created at path.
func (c *Callbacks) OnCreated(ctx context.Context, path string, fn func(Event)) error {
	return c.on(ctx, path, onCreated, fn)
}

// OnRemoved calls fn when the node at path is deleted (or expires).
func (c *Callbacks) OnRemoved(ctx context.Context, path string, fn func(Event)) error {
	return c.on(ctx, path, onRemoved, fn)
}

// OnChanged calls fn when the node at path gets a new value.
func (c *Callbacks) OnChanged(ctx context.Context, path string, fn func(Event)) error {
	return c.on(ctx, path, onChanged, fn)
}

// OnLockChanged calls fn when the holder of the lock at path changes: the
// oldest request under path (see Mutex). The event's Name is the holder's
// lock key name ("" when the lock is free), Path its key, Revision the
// revision of the change.
func (c *Callbacks) OnLockChanged(ctx context.Context, path string, fn func(Event)) error {
	return c.on(ctx, path, onLockChanged, fn)
}

// Clear removes every callback of path and stops its watches; no callback
// of path starts after Clear returns.
func (c *Callbacks) Clear(path string) {
	c.mu.Lock()
	pc := c.paths[path]
	delete(c.paths, path)
	c.mu.Unlock()
	if pc != nil {
		pc.stop()
	}
}

// Close clears every path.
func (c *Callbacks) Close() {
	c.mu.Lock()
	paths := c.paths
	c.paths = map[string]*pathCallbacks{}
	c.mu.Unlock()
	for _, pc := range paths {
		pc.stop()
	}
}

func (pc *pathCallbacks) stop() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.cleared = true
	for _, cancel := range []context.CancelFunc{pc.node, pc.lock} {
		if cancel != nil {
			cancel()
		}
	}
}

func (c *Callbacks) on(ctx context.Context, path string, kind callbackKind, fn func(Event)) error {
	if err := checkPath(path, false); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	pc := c.paths[path]
	if pc == nil {
		pc = &pathCallbacks{fns: map[callbackKind][]func(Event){}}
		c.paths[path] = pc
	}
	pc.mu.Lock()
	pc.fns[kind] = append(pc.fns[kind], fn)
	startNode := kind != onLockChanged && pc.node == nil
	startLock := kind == onLockChanged && pc.lock == nil
	pc.mu.Unlock()
	switch {
	case startNode:
		resp, err := c.t.cli.Get(ctx, path, clientv3.WithCountOnly())
		if err != nil {
			return fmt.Errorf("coord: start callbacks on %s: %w", path, err)
		}
		wctx, cancel := context.WithCancel(context.Background())
		pc.setCancel(&pc.node, cancel)
		go pc.dispatchNode(c.t.Watch(wctx, path, WatchOptions{FromRevision: resp.Header.Revision + 1}))
	case startLock:
		children, rev, err := c.t.ChildrenData(ctx, path, 0)
		if err != nil {
			return fmt.Errorf("coord: start lock callbacks on %s: %w", path, err)
		}
		wctx, cancel := context.WithCancel(context.Background())
		pc.setCancel(&pc.lock, cancel)
		go pc.dispatchLock(path, children, c.t.Watch(wctx, path, WatchOptions{Children: true, FromRevision: rev + 1}))
	}
	return nil
}

func (pc *pathCallbacks) setCancel(slot *context.CancelFunc, cancel context.CancelFunc) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	*slot = cancel
	if pc.cleared {
		cancel()
	}
}

// call runs kind's callbacks for ev unless the path was cleared.
func (pc *pathCallbacks) call(kind callbackKind, ev Event) {
	pc.mu.Lock()
	if pc.cleared {
		pc.mu.Unlock()
		return
	}
	fns := slices.Clone(pc.fns[kind])
	pc.mu.Unlock()
	for _, fn := range fns {
		fn(ev)
	}
}

func (pc *pathCallbacks) dispatchNode(events <-chan Event) {
	exists := false
	for ev := range events {
		switch ev.Type {
		case EventCreated:
			exists = true
			pc.call(onCreated, ev)
		case EventChanged:
			pc.call(onChanged, ev)
		case EventDeleted:
			exists = false
			pc.call(onRemoved, ev)
		case EventResync:
			now := len(ev.Children) == 1
			switch {
			case now && !exists:
				pc.call(onCreated, resyncEvent(ev, EventCreated))
			case !now && exists:
				pc.call(onRemoved, resyncEvent(ev, EventDeleted))
			case now:
				pc.call(onChanged, resyncEvent(ev, EventChanged))
			}
			exists = now
		}
	}
}

func resyncEvent(ev Event, t EventType) Event {
	e := Event{Type: t, Path: ev.Path, Name: ev.Name, Revision: ev.Revision}
	if len(ev.Children) == 1 {
		e.Value, e.Stat = ev.Children[0].Value, ev.Children[0].Stat
	}
	return e
}

func (pc *pathCallbacks) dispatchLock(path string, initial []Child, events <-chan Event) {
	requests := map[string]int64{} // name → create revision
	for _, c := range initial {
		requests[c.Name] = c.Stat.CreateRevision
	}
	holder := oldest(requests)
	for ev := range events {
		switch ev.Type {
		case EventCreated, EventChanged:
			requests[ev.Name] = ev.Stat.CreateRevision
		case EventDeleted:
			delete(requests, ev.Name)
		case EventResync:
			clear(requests)
			for _, c := range ev.Children {
				requests[c.Name] = c.Stat.CreateRevision
			}
		}
		if h := oldest(requests); h != holder {
			holder = h
			e := Event{Type: EventChanged, Name: h, Revision: ev.Revision}
			if h != "" {
				e.Path = JoinPath(path, h)
			}
			pc.call(onLockChanged, e)
		}
	}
}

func oldest(requests map[string]int64) string {
	name, rev := "", int64(0)
	for n, r := range requests {
		if name == "" || r < rev {
			name, rev = n, r
		}
	}
	return name
}
