package ledger

import (
	"context"
	"errors"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// An operation on the ledger is a loop of steps: read, decide, and — unless the decision writes
// nothing — write in one transaction guarded by compares of everything the decision read.
//
// A step reads in one of two ways. Serializable: this machine's own etcd member answers from what
// it has applied, with no round trip, but it may be behind the leader. Linearizable: the member
// asks the leader, which confirms its leadership with a quorum, before answering — two round
// trips across a WAN when the member is a follower. A stale read cannot make a write wrong: the
// compares (every counter at the revision read, the idempotency key absent, the booking at the
// revision read) fail, and the write's linearization point is its commit. So an operation starts
// optimistic. But an answer that writes nothing — a refusal, a replay, a booking that is not
// there, nothing to change — has no compare to catch a stale read, so it is decided again from
// linearizable reads before it is given; and a failed compare is retried from linearizable reads
// (a reservation's are made by its failed write itself), so that a member far behind cannot make
// an operation spin.

// result is what one step came to.
type result int

const (
	committed   result = iota // its guarded transaction succeeded: what it read was current
	unwritten                 // it answers without writing (a read, a refusal, a replay, a keep)
	lostRace                  // a compare failed: what it read had changed, or was stale
	failedRead                // an etcd read failed: nothing was written
	failedWrite               // an etcd transaction failed: it may have been applied
)

// next is what an operation does after a step.
type next struct {
	done         bool // answer what the step came to
	pause        bool // back off before the next step
	linearizable bool // the next step reads linearizably
}

// after decides what follows a step that came to r, having read linearizably or not. Only a
// committed write trusts a serializable read; anything else it decided is decided again, at
// once, from linearizable reads, and an operation that read linearizably once keeps doing so.
func after(r result, linearizable bool) next {
	switch {
	case r == committed, r == unwritten && linearizable:
		return next{done: true, linearizable: linearizable}
	case r == unwritten, r == lostRace && !linearizable:
		return next{linearizable: true}
	case r == lostRace:
		return next{pause: true, linearizable: true} // a true race: let the winner finish
	default: // a failed call: the same read again, after a pause
		return next{pause: true, linearizable: linearizable}
	}
}

// readFailure is what a step came to when a read of a booking gave err: an answer when the
// booking is not there, a failed read otherwise.
func readFailure(err error) result {
	if errors.Is(err, ErrNoBooking) {
		return unwritten
	}
	return failedRead
}

// definite reports whether a failed etcd call certainly changed nothing: the member had no
// leader (the request was refused before any proposal) or refused it outright.
func definite(err error) bool {
	return errors.Is(err, rpctypes.ErrNoLeader) || errors.Is(err, rpctypes.ErrNoSpace) ||
		errors.Is(err, rpctypes.ErrTooManyRequests) || errors.Is(err, rpctypes.ErrGRPCNoLeader)
}

// attempt runs step until after says it is done, first reading linearizably or not, and returns
// the error the last step answered with (a refusal, or nil). Lost races and failed calls are
// retried with a short backoff until ctx ends; then the error is an *OutcomeError, Unknown when
// a failed transaction may have been applied.
func (l *Ledger) attempt(ctx context.Context, linearizable bool, step func(ctx context.Context, linearizable bool) (result, error)) error {
	unknown := false
	var last error
	for pauses := 0; ; {
		r, err := step(clientv3.WithRequireLeader(ctx), linearizable)
		switch r {
		case failedWrite:
			unknown = unknown || !definite(err)
			last = err
		case failedRead:
			last = err
		}
		n := after(r, linearizable)
		if n.done {
			return err
		}
		linearizable = n.linearizable
		if !n.pause && ctx.Err() == nil {
			continue
		}
		backoff := min(time.Duration(1<<min(pauses, 5))*10*time.Millisecond, 200*time.Millisecond)
		pauses++
		select {
		case <-ctx.Done():
			if last == nil {
				last = ctx.Err()
			}
			return &OutcomeError{Unknown: unknown, Err: last}
		case <-time.After(backoff):
		}
	}
}
