package alliance

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/coord"
)

// holdBook is this machine's copy of the open holds (holds/<id> = expiry), followed from etcd,
// so that the machine knows when the next one falls due without polling.
type holdBook struct {
	mu      sync.Mutex
	due     map[string]time.Time
	changed chan struct{} // closed and replaced at every change
}

func newHoldBook() *holdBook {
	return &holdBook{due: map[string]time.Time{}, changed: make(chan struct{})}
}

func (h *holdBook) apply(ev coord.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	parse := func(v []byte) time.Time {
		t, err := time.Parse(time.RFC3339Nano, string(v))
		if err != nil {
			return time.Time{} // unreadable: due now, and the ledger decides from the record
		}
		return t
	}
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		h.due[ev.Name] = parse(ev.Value)
	case coord.EventDeleted:
		delete(h.due, ev.Name)
	case coord.EventResync:
		h.due = make(map[string]time.Time, len(ev.Children))
		for _, ch := range ev.Children {
			h.due[ch.Name] = parse(ch.Value)
		}
	}
	close(h.changed)
	h.changed = make(chan struct{})
}

// next returns the holds due at or before now and the earliest later expiry (zero when none),
// and a channel closed at the next change.
func (h *holdBook) next(now time.Time) (due []string, later time.Time, changed <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, at := range h.due {
		if !at.After(now) {
			due = append(due, id)
		} else if later.IsZero() || at.Before(later) {
			later = at
		}
	}
	slices.Sort(due)
	return due, later, h.changed
}

// holdTurn is how long after a hold's expiry each machine in line waits before releasing it
// itself: the delegate at once, the next machine this much later, and so on. Releases are
// transactions guarded by the booking's revision, so two machines releasing one hold give its
// seats back once; the stagger only saves the losers a transaction.
const holdTurn = 250 * time.Millisecond

// sweepHolds releases every hold that expired without confirmation, until ctx ends: the seats
// go back and the booking reads "expired". Every machine sweeps, in turn, so holds expire on
// time while any machine with a quorum is alive.
func (m *Machine) sweepHolds(ctx context.Context) {
	for {
		turn := time.Duration(min(m.lineRank(), 4)) * holdTurn
		due, later, changed := m.holds.next(m.ledger.now().Add(-turn))
		for _, id := range due {
			m.expireHold(ctx, id)
		}
		wait := time.Hour
		if !later.IsZero() {
			wait = max(time.Until(later.Add(turn)), 10*time.Millisecond)
		}
		if len(due) > 0 {
			wait = min(wait, time.Second) // a release that failed is tried again soon
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-changed:
		case <-timer.C:
		}
		timer.Stop()
	}
}

// expireHold releases one hold if it is due; a hold confirmed or cancelled meanwhile is left.
func (m *Machine) expireHold(ctx context.Context, id string) {
	ctx, cancel := context.WithTimeout(ctx, bookingBudget)
	defer cancel()
	now := m.ledger.now()
	rec, err := m.ledger.end(ctx, id, func(r booking.Record) (booking.Ending, string, error) {
		if booking.Due(r, now) {
			return booking.Free, booking.Expired, nil
		}
		return booking.Keep, "", nil
	})
	switch {
	case err == nil && rec.Status == booking.Expired:
		m.log.Info("hold expired; its seats are for sale again", "booking", id, "seats", rec.Seats)
		m.metrics.bookings.WithLabelValues("expire", "ok").Inc()
	case errors.Is(err, errNoBooking):
		// A hold entry without its booking cannot come from the ledger (both are written in one
		// transaction); drop it rather than try it forever.
		if _, err := m.ledger.cli().Delete(ctx, m.keys.hold(id)); err != nil {
			m.log.Warn("dropping an orphan hold entry failed", "booking", id, "err", err)
		}
	case err != nil:
		m.log.Warn("releasing an expired hold failed; retrying", "booking", id, "err", err)
	}
}

// lineRank is this machine's place among the live machines by name (0 for the delegate).
func (m *Machine) lineRank() int {
	for i, e := range m.view.entries() {
		if e.Name == m.cfg.Name {
			return i
		}
	}
	return 4
}
