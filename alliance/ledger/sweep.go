package ledger

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"flightalliance/alliance/booking"
)

// holdTurn is how long after a hold's expiry each machine in line waits before releasing it
// itself: the delegate at once, the next machine this much later, and so on. Releases are
// transactions guarded by the booking's revision, so two machines releasing one hold give its
// seats back once; the stagger only saves the losers a transaction.
const holdTurn = 250 * time.Millisecond

// maxTurns is the last place in line that waits longer: the fifth machine and every later one
// (and a machine not in the view) wait maxTurns turns.
const maxTurns = 4

// retryRelease is how soon a sweep that released holds looks again: a release that failed is
// tried again this soon.
const retryRelease = time.Second

// sweepPlan is one decision of the sweep: the holds to release now (sorted), and how long to
// wait before looking again unless the holds change first.
type sweepPlan struct {
	release []string
	wait    time.Duration
}

// planSweep decides, at now, for the machine at place rank in line (0 for the delegate, -1 when
// it is not in line), which of the open holds to release and how long to wait.
func planSweep(now time.Time, rank int, open map[string]time.Time) sweepPlan {
	if rank < 0 || rank > maxTurns {
		rank = maxTurns
	}
	turn := time.Duration(rank) * holdTurn
	var plan sweepPlan
	var later time.Time
	for id, at := range open {
		if !at.Add(turn).After(now) {
			plan.release = append(plan.release, id)
		} else if later.IsZero() || at.Before(later) {
			later = at
		}
	}
	slices.Sort(plan.release)
	plan.wait = time.Hour
	if !later.IsZero() {
		plan.wait = max(later.Add(turn).Sub(now), 10*time.Millisecond)
	}
	if len(plan.release) > 0 {
		plan.wait = min(plan.wait, retryRelease)
	}
	return plan
}

// Sweep releases every hold that expired without confirmation: the seats go back and the
// booking reads "expired". Every machine sweeps, in turn, so holds expire on time while any
// machine with a quorum is alive.
type Sweep struct {
	holds   *Holds
	rank    func() int // this machine's place in line: 0 for the delegate, -1 when not in line
	now     func() time.Time
	after   func(time.Duration) (<-chan time.Time, func() bool)
	release func(ctx context.Context, id string)
}

// NewSweep returns the sweep of holds over l; rank tells this machine's place in line, log and
// onExpired hear of every hold released.
func NewSweep(l *Ledger, holds *Holds, rank func() int, log *slog.Logger, onExpired func()) *Sweep {
	return &Sweep{
		holds: holds,
		rank:  rank,
		now:   l.now,
		after: func(d time.Duration) (<-chan time.Time, func() bool) {
			t := time.NewTimer(d)
			return t.C, t.Stop
		},
		release: func(ctx context.Context, id string) { l.expireHold(ctx, id, holds, log, onExpired) },
	}
}

// Run sweeps until ctx ends: it releases what is due, then waits for the next expiry or for a
// change of the open holds.
func (s *Sweep) Run(ctx context.Context) {
	for ctx.Err() == nil {
		rank := s.rank()
		open, changed := s.holds.snapshot()
		plan := planSweep(s.now(), rank, open)
		for _, id := range plan.release {
			s.release(ctx, id)
		}
		timer, stop := s.after(plan.wait)
		select {
		case <-ctx.Done():
		case <-changed:
		case <-timer:
		}
		stop()
	}
}

// expireHold releases one hold if it is due on this machine's clock (holds.Expired); a hold
// confirmed or cancelled meanwhile is left.
func (l *Ledger) expireHold(ctx context.Context, id string, holds *Holds, log *slog.Logger, onExpired func()) {
	ctx, cancel := context.WithTimeout(ctx, Budget)
	defer cancel()
	now := l.now()
	rec, err := l.end(ctx, id, func(r booking.Record) (booking.Ending, string, error) {
		if holds.Expired(r, now) {
			return booking.Free, booking.Expired, nil
		}
		return booking.Keep, "", nil
	})
	switch {
	case err == nil && rec.Status == booking.Expired:
		log.Info("hold expired; its seats are for sale again", "booking", id, "seats", rec.Seats)
		onExpired()
	case errors.Is(err, ErrNoBooking):
		// A hold entry without its booking cannot come from the ledger (both are written in one
		// transaction); drop it rather than try it forever.
		l.calls.writes.Add(1)
		if _, err := l.cli().Delete(ctx, l.keys.hold(id)); err != nil {
			log.Warn("dropping an orphan hold entry failed", "booking", id, "err", err)
		}
	case err != nil:
		log.Warn("releasing an expired hold failed; retrying", "booking", id, "err", err)
	}
}
