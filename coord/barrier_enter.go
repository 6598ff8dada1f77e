package coord

import (
	"context"
	"fmt"
	"slices"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Entering a round, the first half of the double barrier (see Barrier for
// the protocol): a participant creates its enter key and waits until every
// participant has one, or until one that had entered drops out.

// Enter joins the round with value and waits for every participant; it
// returns every participant's value.
func (b *Barrier) Enter(ctx context.Context, value []byte) (map[string][]byte, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	// Create the enter key and list the entered in one transaction, so
	// that whoever had entered by then is watched from that very revision.
	enterDir := b.path + "/enter"
	key := b.enterKey(b.self)
	resp, err := b.t.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(value), clientv3.WithLease(b.s.Lease())),
			clientv3.OpGet(childPrefix(enterDir), clientv3.WithPrefix())).
		Commit()
	if err != nil {
		// The write may have been applied although the call failed (a timeout, a leader
		// change, ctx cancelled in flight): remove it, or the others would wait for a vote
		// this participant will never cast.
		b.dropEnter()
		return nil, fmt.Errorf("coord: barrier %s: %s enters: %w", b.path, b.self, err)
	}
	if !resp.Succeeded {
		return nil, fmt.Errorf("coord: barrier %s: %s enters: %w: %s", b.path, b.self, ErrNodeExists, key)
	}
	b.enterRev = resp.Header.Revision
	var entered []Child
	for _, kv := range resp.Responses[1].GetResponseRange().Kvs {
		if name, ok := childName(childPrefix(enterDir), string(kv.Key)); ok {
			entered = append(entered, Child{Name: name, Value: kv.Value})
		}
	}
	values, err := b.waitEntered(ctx, entered, b.enterRev)
	if err != nil {
		b.dropEnter()
		return nil, err
	}
	return values, nil
}

func (b *Barrier) waitEntered(ctx context.Context, entered []Child, rev int64) (map[string][]byte, error) {
	enterDir := b.path + "/enter"
	values := map[string][]byte{}
	reset := func(children []Child) {
		clear(values)
		for _, c := range children {
			if slices.Contains(b.participants, c.Name) {
				values[c.Name] = c.Value
			}
		}
	}
	reset(entered)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := b.t.Watch(wctx, enterDir, WatchOptions{Children: true, FromRevision: rev + 1})
	doubt := b.s.Doubt()
	for {
		if len(values) == len(b.participants) {
			return values, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("coord: barrier %s: %s waiting for %v: %w", b.path, b.self, b.missing(values), ctx.Err())
		case <-doubt:
			return nil, fmt.Errorf("%w: barrier %s: %s's session ended: %w", ErrBarrierAborted, b.path, b.self, ErrSessionLost)
		case ev, ok := <-events:
			if !ok {
				return nil, fmt.Errorf("coord: barrier %s: watch ended: %w", b.path, ctx.Err())
			}
			switch ev.Type {
			case EventResync:
				before := len(values)
				reset(ev.Children)
				if len(values) < before {
					return nil, fmt.Errorf("%w: barrier %s: a participant left while entering", ErrBarrierAborted, b.path)
				}
			case EventCreated, EventChanged:
				if slices.Contains(b.participants, ev.Name) {
					values[ev.Name] = ev.Value
				}
			case EventDeleted:
				if _, was := values[ev.Name]; was {
					return nil, fmt.Errorf("%w: barrier %s: participant %q left before all entered", ErrBarrierAborted, b.path, ev.Name)
				}
			}
		}
	}
}

func (b *Barrier) missing(values map[string][]byte) []string {
	var out []string
	for _, p := range b.participants {
		if _, ok := values[p]; !ok {
			out = append(out, p)
		}
	}
	return out
}
