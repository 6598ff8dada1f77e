package coord

import (
	"context"
	"fmt"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Leaving a round, the second half of the double barrier (see Barrier for
// the protocol): a participant votes to commit by writing its done key, then
// reads the round's keys until the outcome is decided — the same outcome for
// every participant.

// Leave votes to commit the round and waits for its outcome: nil iff the
// round committed (every participant wrote its done key), ErrBarrierAborted
// if it never can. A failed call to etcd may have been applied anyway, so
// Leave retries (the vote is idempotent) until it knows the outcome; only if
// ctx ends first is the outcome unknown to this caller (any other error).
func (b *Barrier) Leave(ctx context.Context) error {
	if b.enterRev == 0 {
		return fmt.Errorf("coord: barrier %s: %s leaves without having entered", b.path, b.self)
	}
	defer b.dropEnter()
	cli := b.t.cli
	var lease *clientv3.LeaseGrantResponse
	err := retry(ctx, func() (err error) {
		lease, err = cli.Grant(ctx, int64(doneTTL/time.Second))
		return err
	})
	if err != nil {
		return fmt.Errorf("coord: barrier %s: lease for done key: %w", b.path, err)
	}
	var resp *clientv3.TxnResponse
	err = retry(ctx, func() (err error) {
		resp, err = cli.Txn(ctx).
			If(clientv3.Compare(clientv3.CreateRevision(b.enterKey(b.self)), "=", b.enterRev)).
			Then(clientv3.OpPut(b.doneKey(b.self), "", clientv3.WithLease(lease.ID))).Commit()
		return err
	})
	if err != nil {
		return fmt.Errorf("coord: barrier %s: %s writes done (outcome unknown): %w", b.path, b.self, err)
	}
	if !resp.Succeeded && b.voted(ctx) {
		// An earlier attempt was applied before the enter key went away: the vote stands.
		return b.waitOutcome(ctx)
	}
	if !resp.Succeeded {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		_, _ = cli.Revoke(rctx, lease.ID)
		cancel()
		return fmt.Errorf("%w: barrier %s: %s's enter key is gone (session lost)", ErrBarrierAborted, b.path, b.self)
	}
	return b.waitOutcome(ctx)
}

// voted reports whether this participant's done key exists (an applied vote).
func (b *Barrier) voted(ctx context.Context) bool {
	var resp *clientv3.GetResponse
	err := retry(ctx, func() (err error) {
		resp, err = b.t.cli.Get(ctx, b.doneKey(b.self), clientv3.WithCountOnly())
		return err
	})
	return err == nil && resp.Count > 0
}

// roundState is the set of enter and done keys at one revision.
type roundState struct{ enter, done map[string]bool }

func (r roundState) apply(name string, present bool) {
	switch {
	case strings.HasPrefix(name, "enter/"):
		r.enter[strings.TrimPrefix(name, "enter/")] = present
	case strings.HasPrefix(name, "done/"):
		r.done[strings.TrimPrefix(name, "done/")] = present
	}
}

// outcome: committed, aborted (naming who can never vote), or undecided.
func (b *Barrier) outcome(r roundState) (decided bool, err error) {
	all := true
	for _, p := range b.participants {
		if !r.done[p] {
			all = false
			if !r.enter[p] {
				return true, fmt.Errorf("%w: barrier %s: participant %q left without voting", ErrBarrierAborted, b.path, p)
			}
		}
	}
	return all, nil
}

func (b *Barrier) waitOutcome(ctx context.Context) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	state := roundState{enter: map[string]bool{}, done: map[string]bool{}}
	// The initial read and the watch form one ordered stream: list at rev,
	// then every change from rev+1.
	var resp *clientv3.GetResponse
	err := retry(ctx, func() (err error) {
		resp, err = b.t.cli.Get(ctx, childPrefix(b.path), clientv3.WithPrefix(), clientv3.WithKeysOnly())
		return err
	})
	if err != nil {
		return fmt.Errorf("coord: barrier %s: read round (outcome unknown): %w", b.path, err)
	}
	for _, kv := range resp.Kvs {
		state.apply(strings.TrimPrefix(string(kv.Key), childPrefix(b.path)), true)
	}
	events := b.t.Watch(wctx, b.path, WatchOptions{Recursive: true, FromRevision: resp.Header.Revision + 1})
	for {
		if decided, err := b.outcome(state); decided {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("coord: barrier %s: %s waiting for the outcome: %w", b.path, b.self, ctx.Err())
		case ev, ok := <-events:
			if !ok {
				return fmt.Errorf("coord: barrier %s: watch ended: %w", b.path, ctx.Err())
			}
			if ev.Type == EventResync {
				state = roundState{enter: map[string]bool{}, done: map[string]bool{}}
				for _, c := range ev.Children {
					state.apply(c.Name, true)
				}
				continue
			}
			state.apply(ev.Name, ev.Type != EventDeleted)
		}
	}
}
