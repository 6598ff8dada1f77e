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

// dropEnter is the best-effort cleanup after an outcome or a failure.
func (b *Barrier) dropEnter() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.deleteEnter(ctx)
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
