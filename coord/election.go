package coord

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// LowestName reports the lexicographically smallest child name of prefix —
// the leader of a lowest-name election among the live (typically
// ephemeral) entries under it. It sends the current value first, then
// again whenever it changes ("" when there are no children), until ctx
// ends; then the channel is closed. A reader that falls behind sees every
// value in order (the channel is not lossy). The channel is closed at once
// for an invalid prefix, and when the tree's client is closed.
func LowestName(ctx context.Context, t *Tree, prefix string) <-chan string {
	out := make(chan string, 1)
	send := func(name string) func() {
		return func() {
			select {
			case out <- name:
			case <-ctx.Done():
			}
		}
	}
	// The send is the fold's after: it runs outside the mirror's lock, in
	// event order, and holds the watch back while the reader is behind.
	m := NewMirror(lowestName{names: map[string]bool{}}, func(s *lowestName, ev Event) func() {
		foldNames(s.names, ev)
		low := lowest(s.names)
		if s.sent && low == s.last {
			return nil
		}
		s.last, s.sent = low, true
		return send(low)
	})
	go func() {
		defer close(out)
		m.Follow(ctx, t, prefix, WatchOptions{Children: true}, slog.New(slog.DiscardHandler))
	}()
	return out
}

// lowestName is LowestName's state: the child names, and the lowest one
// last sent (sent is false before the first).
type lowestName struct {
	names map[string]bool
	last  string
	sent  bool
}

// foldNames applies one event of a children watch to a set of names.
func foldNames(names map[string]bool, ev Event) {
	switch ev.Type {
	case EventCreated, EventChanged:
		names[ev.Name] = true
	case EventDeleted:
		delete(names, ev.Name)
	case EventResync:
		clear(names)
		for _, c := range ev.Children {
			names[c.Name] = true
		}
	}
}

func lowest(names map[string]bool) string {
	low := ""
	for n := range names {
		if low == "" || n < low {
			low = n
		}
	}
	return low
}

// LeaseElection elects one leader among the campaigners of a prefix,
// over etcd's concurrency.Election: the leader is the campaigner with the
// oldest key (first come), not the lowest name. Run gives the winner a
// context that is cancelled the moment its leadership ends.
type LeaseElection struct {
	s      *Session
	prefix string
}

// NewLeaseElection returns the election at prefix for session s.
func NewLeaseElection(s *Session, prefix string) *LeaseElection {
	return &LeaseElection{s: s, prefix: prefix}
}

// Run campaigns with value until elected (or ctx ends), then runs task
// with a context that is cancelled, with cause ErrLeadershipLost, as soon
// as the session is lost or the leader key disappears; and cancelled when
// ctx ends. When task returns, Run resigns and returns task's error.
func (e *LeaseElection) Run(ctx context.Context, value string, task func(ctx context.Context) error) error {
	if err := checkPath(e.prefix, false); err != nil {
		return err
	}
	el := concurrency.NewElection(e.s.etcdSession(), e.prefix)
	if err := el.Campaign(ctx, value); err != nil {
		return fmt.Errorf("coord: campaign at %s: %w", e.prefix, err)
	}
	// Campaign can return after the session expired while it waited:
	// confirm the leader key is still ours before leading.
	// The key and revision are read once here: Resign clears them in el while the watch below
	// may still be starting.
	key, rev := el.Key(), el.Rev()
	resp, err := e.s.Client().Get(ctx, key)
	if err != nil || len(resp.Kvs) == 0 || resp.Kvs[0].CreateRevision != rev {
		return fmt.Errorf("%w: leader key %s vanished right after the campaign (err %v)", ErrLeadershipLost, key, err)
	}
	leadCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	doubt := e.s.Doubt() // the keep-alive the lead was confirmed under
	go func() {
		events := NewTree(e.s.Client()).Watch(leadCtx, key, WatchOptions{FromRevision: rev + 1})
		for {
			select {
			case <-leadCtx.Done():
				return
			case <-doubt:
				cancel(fmt.Errorf("%w: session ended", ErrLeadershipLost))
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.Type == EventDeleted || (ev.Type == EventResync && !holds(ev.Children, rev)) {
					cancel(fmt.Errorf("%w: leader key %s deleted", ErrLeadershipLost, key))
					return
				}
			}
		}
	}()
	taskErr := task(leadCtx)
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer rcancel()
	_ = el.Resign(rctx)
	return taskErr
}

// Leader returns the current leader's value; ErrNoNode when there is none.
func (e *LeaseElection) Leader(ctx context.Context) (string, error) {
	resp, err := e.s.Client().Get(ctx, e.prefix+"/", clientv3.WithFirstCreate()...)
	if err != nil {
		return "", fmt.Errorf("coord: leader of %s: %w", e.prefix, err)
	}
	if len(resp.Kvs) == 0 {
		return "", fmt.Errorf("%w: no leader at %s", ErrNoNode, e.prefix)
	}
	return string(resp.Kvs[0].Value), nil
}
