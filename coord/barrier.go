package coord

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// doneTTL is how long a participant's done key outlives its Leave: every
// participant must observe the outcome within this time (see Barrier).
const doneTTL = 60 * time.Second

// Barrier is a double barrier for one round with a known participant list,
// whose Leave is decisive: every participant that gets a result from Leave
// gets the same one. It is written here rather than wrapping etcd's
// recipes.DoubleBarrier, which takes no context, counts anonymous entries
// and blocks forever when a participant dies.
//
// Keys (path must be unique per round; reusing it for a new round is
// unsafe while the previous round's done keys live):
//
//	path/enter/<name>  ephemeral (the participant's session), value = its Enter value
//	path/done/<name>   bound to a lease of its own of 60s, so it expires by itself
//
// Protocol:
//   - Enter creates path/enter/self and returns when every participant's
//     enter key exists, with their values. It fails with ErrBarrierAborted
//     as soon as a participant that had entered when this one entered (or
//     entered later) loses its enter key (session ended, or Abort). One that
//     entered and left before this one entered is indistinguishable from
//     one that has not arrived yet: Enter then waits until ctx ends.
//   - Leave writes path/done/self in a transaction conditioned on its own
//     enter key still existing with the create revision Enter gave it, so a
//     paused participant whose lease expired (a zombie) can never write it.
//     It then reads the round's keys as one ordered stream of revisions:
//     the round committed iff every participant has a done key; it aborted
//     as soon as some participant has neither a done key nor an enter key
//     (it can never write one). Both are stable facts, and no revision can
//     show one after the other (a done key outlives its owner's enter key
//     by 60s), so every participant decides the same — provided it reads
//     the outcome within 60s of the last done key being written.
//   - Abort deletes the own enter key and never writes done.
//   - Cleanup: each participant deletes its own enter key once the outcome
//     is known (after writing done, that cannot change the outcome); done
//     keys expire with their lease.
type Barrier struct {
	t            *Tree
	s            *Session
	path         string
	self         string
	participants []string
	enterRev     int64 // create revision of our enter key, 0 before Enter
}

// NewBarrier prepares the participant self's side of the round at path.
func NewBarrier(t *Tree, s *Session, path, self string, participants []string) *Barrier {
	ps := slices.Clone(participants)
	slices.Sort(ps)
	return &Barrier{t: t, s: s, path: path, self: self, participants: slices.Compact(ps)}
}

func (b *Barrier) enterKey(name string) string { return b.path + "/enter/" + name }
func (b *Barrier) doneKey(name string) string  { return b.path + "/done/" + name }

func (b *Barrier) check() error {
	if err := checkPath(b.path, false); err != nil {
		return err
	}
	if !slices.Contains(b.participants, b.self) {
		return fmt.Errorf("coord: barrier %s: %q is not among participants %v", b.path, b.self, b.participants)
	}
	for _, p := range b.participants {
		if p == "" || strings.Contains(p, "/") {
			return fmt.Errorf("coord: barrier %s: bad participant name %q", b.path, p)
		}
	}
	return nil
}

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

// Abort drops out of the round: the own enter key is deleted and no done
// key is ever written, so the round can never commit. It also removes an
// enter key whose creation Enter saw fail (it may have been applied).
func (b *Barrier) Abort(ctx context.Context) error {
	if err := b.deleteEnter(ctx); err != nil {
		return fmt.Errorf("coord: barrier %s: %s aborts: %w", b.path, b.self, err)
	}
	return nil
}

// deleteEnter deletes the own enter key if it is this session's (bound to its
// lease) — whether or not Enter learned that its creation was applied.
func (b *Barrier) deleteEnter(ctx context.Context) error {
	key := b.enterKey(b.self)
	_, err := b.t.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.LeaseValue(key), "=", b.s.Lease())).
		Then(clientv3.OpDelete(key)).Commit()
	return err
}

// retry calls f until it succeeds or ctx ends, backing off between attempts:
// for calls that are safe to repeat and whose failure says nothing about
// whether they were applied.
func retry(ctx context.Context, f func() error) error {
	for attempt := 0; ; attempt++ {
		err := f()
		if err == nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(min(50*time.Millisecond<<min(attempt, 5), time.Second)):
		}
	}
}

// dropEnter is the best-effort cleanup after an outcome or a failure.
func (b *Barrier) dropEnter() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.deleteEnter(ctx)
}
