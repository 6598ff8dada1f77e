package coord

import (
	"context"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// LowestName reports the lexicographically smallest child name of prefix —
// the leader of a lowest-name election among the live (typically
// ephemeral) entries under it. It sends the current value first, then
// again whenever it changes ("" when there are no children), until ctx
// ends; then the channel is closed. A reader that falls behind sees every
// value in order (the channel is not lossy).
func LowestName(ctx context.Context, t *Tree, prefix string) <-chan string {
	out := make(chan string, 1)
	go func() {
		defer close(out)
		names := map[string]bool{}
		var from int64
		for ctx.Err() == nil {
			children, rev, err := t.Children(ctx, prefix)
			if err == nil {
				for _, c := range children {
					names[c] = true
				}
				from = rev + 1
				break
			}
			if errors.Is(err, ErrBadPath) || t.cli.Ctx().Err() != nil {
				return
			}
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
		}
		last := "\x00unset"
		emit := func() bool {
			low := lowest(names)
			if low == last {
				return true
			}
			last = low
			select {
			case out <- low:
				return true
			case <-ctx.Done():
				return false
			}
		}
		if ctx.Err() != nil || !emit() {
			return
		}
		for ev := range t.Watch(ctx, prefix, WatchOptions{Children: true, FromRevision: from}) {
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
			if !emit() {
				return
			}
		}
	}()
	return out
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
	resp, err := e.s.Client().Get(ctx, el.Key())
	if err != nil || len(resp.Kvs) == 0 || resp.Kvs[0].CreateRevision != el.Rev() {
		return fmt.Errorf("%w: leader key %s vanished right after the campaign (err %v)", ErrLeadershipLost, el.Key(), err)
	}
	leadCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		events := NewTree(e.s.Client()).Watch(leadCtx, el.Key(), WatchOptions{FromRevision: el.Rev() + 1})
		for {
			select {
			case <-leadCtx.Done():
				return
			case <-e.s.Done():
				cancel(fmt.Errorf("%w: session ended", ErrLeadershipLost))
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.Type == EventDeleted || (ev.Type == EventResync && !holds(ev.Children, el.Rev())) {
					cancel(fmt.Errorf("%w: leader key %s deleted", ErrLeadershipLost, el.Key()))
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
