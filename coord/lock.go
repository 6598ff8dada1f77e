package coord

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// ErrLocked is returned by TryLock when the lock is held by someone else.
var ErrLocked = errors.New("coord: locked by another holder")

// Locks are keys under the lock's path, one per requester, bound to the
// requester's session and ordered by create revision (FIFO):
//
//	<path>/w-<lease hex>   exclusive request
//	<path>/r-<lease hex>   shared request
//
// An exclusive request is granted when no request older than it remains; a
// shared one when no older exclusive request remains. The grant's fencing
// token is its key's create revision: it only grows, so a resource that
// remembers the largest token it has seen can refuse a stale holder. A
// holder can also make its writes conditional on still holding the lock
// (Guarded), which is what makes a paused holder whose session expired
// harmless: its write is refused with ErrLockLost.
const (
	writeKind = "w-"
	readKind  = "r-"
)

// Mutex is an exclusive lock at a path.
type Mutex struct {
	t    *Tree
	s    *Session
	path string
}

// NewMutex returns the exclusive lock at path for session s.
func NewMutex(t *Tree, s *Session, path string) *Mutex { return &Mutex{t: t, s: s, path: path} }

// Lock waits until the lock is granted, ctx ends (ctx's error) or the
// session is lost (ErrSessionLost).
func (m *Mutex) Lock(ctx context.Context) (*Grant, error) {
	return acquire(ctx, m.t, m.s, m.path, writeKind, true)
}

// TryLock takes the lock if it is free, else fails with ErrLocked.
func (m *Mutex) TryLock(ctx context.Context) (*Grant, error) {
	return acquire(ctx, m.t, m.s, m.path, writeKind, false)
}

// Grant is a held lock.
type Grant struct {
	t   *Tree
	s   *Session
	key string
	rev int64

	mu     sync.Mutex
	lost   chan struct{}
	stop   context.CancelFunc
	closed bool
}

// Token is the fencing token: the lock key's create revision.
func (g *Grant) Token() int64 { return g.rev }

// Key is the lock key of this grant.
func (g *Grant) Key() string { return g.key }

// IsOwner is a transaction condition that holds while this grant does.
func (g *Grant) IsOwner() clientv3.Cmp {
	return clientv3.Compare(clientv3.CreateRevision(g.key), "=", g.rev)
}

// Guarded applies ops atomically only if the lock is still held by this
// grant; otherwise nothing is written and the error is ErrLockLost.
func (g *Grant) Guarded(ctx context.Context, ops ...Op) (int64, error) {
	return g.t.guardedMulti(ctx, &guard{key: g.key, rev: g.rev,
		err: fmt.Errorf("%w: %s (token %d)", ErrLockLost, g.key, g.rev)}, ops)
}

// Lost is closed when the grant ends: its key was deleted (session expired,
// or someone removed it), its session ended, or Unlock was called.
func (g *Grant) Lost() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lost != nil {
		return g.lost
	}
	g.lost = make(chan struct{})
	if g.closed {
		close(g.lost)
		return g.lost
	}
	ctx, cancel := context.WithCancel(context.Background())
	g.stop = cancel
	go g.watchLoss(ctx, g.lost)
	return g.lost
}

func (g *Grant) watchLoss(ctx context.Context, lost chan struct{}) {
	defer close(lost)
	doubt := g.s.Doubt() // the keep-alive the lock was granted under
	events := g.t.Watch(ctx, g.key, WatchOptions{FromRevision: g.rev + 1})
	for {
		select {
		case <-ctx.Done():
			return
		case <-doubt:
			return
		case ev, ok := <-events:
			if !ok || ev.Type == EventDeleted || (ev.Type == EventResync && !holds(ev.Children, g.rev)) {
				return
			}
		}
	}
}

func holds(children []Child, rev int64) bool {
	return len(children) == 1 && children[0].Stat.CreateRevision == rev
}

// Unlock releases the lock (deletes its key).
func (g *Grant) Unlock(ctx context.Context) error {
	g.mu.Lock()
	g.closed = true
	if g.stop != nil {
		g.stop()
	}
	g.mu.Unlock()
	// A plain delete is safe: the key names the session's lease, and a
	// session cannot request the same lock twice, so this key is either
	// this grant's or already gone.
	if _, err := g.t.cli.Delete(ctx, g.key); err != nil {
		return fmt.Errorf("coord: unlock %s: %w", g.key, err)
	}
	return nil
}

// acquire requests the lock at path of the given kind and waits for it
// (or, when wait is false, gives up with ErrLocked).
func acquire(ctx context.Context, t *Tree, s *Session, path, kind string, wait bool) (*Grant, error) {
	if err := checkPath(path, false); err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s/%s%016x", path, kind, int64(s.Lease()))
	blockers := path + "/"
	if kind == readKind {
		blockers = path + "/" + writeKind
	}
	resp, err := t.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, "", clientv3.WithLease(s.Lease())),
			clientv3.OpGet(blockers, clientv3.WithFirstCreate()...)).
		Commit()
	if err != nil {
		return nil, fmt.Errorf("coord: request lock %s: %w", key, err)
	}
	if !resp.Succeeded {
		return nil, fmt.Errorf("%w: %s", ErrLockHeld, key)
	}
	g := &Grant{t: t, s: s, key: key, rev: resp.Header.Revision}
	first := resp.Responses[1].GetResponseRange().Kvs
	if len(first) == 0 || first[0].CreateRevision >= g.rev {
		return g, nil
	}
	if !wait {
		g.release()
		return nil, fmt.Errorf("%w: %s", ErrLocked, path)
	}
	if err := g.waitTurn(ctx, blockers); err != nil {
		g.release()
		return nil, err
	}
	return g, nil
}

// waitTurn waits until no blocking request older than g's remains, then
// checks that g's own key still exists (its session may have expired
// meanwhile).
func (g *Grant) waitTurn(ctx context.Context, blockers string) error {
	cli := g.t.cli
	for {
		resp, err := cli.Get(ctx, blockers, append(clientv3.WithLastCreate(), clientv3.WithMaxCreateRev(g.rev-1))...)
		if err != nil {
			return fmt.Errorf("coord: wait for lock %s: %w", g.key, err)
		}
		if len(resp.Kvs) == 0 {
			own, err := cli.Get(ctx, g.key)
			if err != nil {
				return fmt.Errorf("coord: wait for lock %s: %w", g.key, err)
			}
			if len(own.Kvs) == 0 || own.Kvs[0].CreateRevision != g.rev {
				return fmt.Errorf("%w: lock request %s vanished while waiting", ErrSessionLost, g.key)
			}
			return nil
		}
		if err := g.waitDelete(ctx, string(resp.Kvs[0].Key), resp.Header.Revision+1); err != nil {
			return err
		}
	}
}

// waitDelete returns when key is deleted after revision from, or when the
// watch breaks (the caller re-reads), or fails when ctx or the session end.
func (g *Grant) waitDelete(ctx context.Context, key string, from int64) error {
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	wch := g.t.cli.Watch(wctx, key, clientv3.WithRev(from), clientv3.WithFilterPut())
	doubt := g.s.Doubt()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("coord: wait for lock %s: %w", g.key, ctx.Err())
		case <-doubt:
			return fmt.Errorf("%w: waiting for lock %s", ErrSessionLost, g.key)
		case wr, ok := <-wch:
			if !ok || wr.Err() != nil {
				select {
				case <-time.After(50 * time.Millisecond):
				case <-ctx.Done():
				}
				return nil
			}
			for _, ev := range wr.Events {
				if ev.Type == mvccpb.DELETE {
					return nil
				}
			}
		}
	}
}

// release deletes a request that was not granted (best effort).
func (g *Grant) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = g.Unlock(ctx)
}
