package alliance

import (
	"context"
	"time"
)

// roundLoop runs a placement round for every membership change (roundPacer decides when), keeps
// this machine's entries published, and drops the copies it gave away once their new holders
// show in the view (pendingDrops). It runs until ctx ends.
func (m *Machine) roundLoop(ctx context.Context) {
	pacer := roundPacer{retryAfter: 3 * m.cfg.SessionTTL}
	drops := pendingDrops{self: m.cfg.Name}
	for ctx.Err() == nil {
		changed := m.view.wait()
		if rev := m.view.membership(); pacer.shouldRun(rev, m.inView() && m.sessionLive()) {
			start := time.Now()
			out := m.runRound(ctx, rev)
			m.recordRound(out, time.Since(start))
			if out.Committed && out.Err == nil {
				drops.committed(out.Plan)
				if len(out.Unassigned) > 0 {
					drops.add(out.Gen, out.Plan, out.Unassigned, time.Now().Add(m.cfg.DropGrace))
				}
			}
			if pacer.ran(rev, out, time.Now()) {
				// Rounds one after another must not keep this machine's entry unpublished, nor
				// its given-away copies undropped.
				m.keepUp(ctx, &drops)
				continue
			}
			if !out.Committed || out.Err != nil {
				m.log.Warn("round failed", "round", rev, "committed_elsewhere", out.Committed, "err", out.Err)
			}
		}
		if m.view.takeRelisted() {
			pacer.relisted(m.requestRound(ctx) == nil, time.Now())
		}
		if pacer.shouldAsk(m.view.membership(), time.Now()) {
			pacer.asked(m.requestRound(ctx) == nil, time.Now())
		}
		m.keepUp(ctx, &drops)
		wait := time.Second
		if next, ok := drops.next(); ok {
			wait = min(wait, max(time.Until(next), time.Millisecond))
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-changed:
		case <-timer.C:
		}
		timer.Stop()
	}
}

// keepUp publishes this machine's entry again if its last publish failed, and drops the copies
// that are due.
func (m *Machine) keepUp(ctx context.Context, drops *pendingDrops) {
	if m.republish.Load() {
		if err := m.publish(ctx); err == nil {
			m.republish.Store(false)
		}
	}
	m.dropDue(drops)
}

// dropDue drops the copies whose new holders have published their entries, or whose grace
// period is over and whose sellers the view shows held elsewhere.
func (m *Machine) dropDue(drops *pendingDrops) {
	for _, d := range drops.due(m.view.entries(), time.Now()) {
		if d.graceOver {
			m.log.Info("dropping copies after the grace period; not every machine has published its entries yet, those of these sellers have", "sellers", d.codes)
		}
		if dropped := m.copies.drop(d.gen, d.codes); len(dropped) > 0 {
			m.log.Info("dropped copies no longer assigned here", "sellers", dropped)
		}
	}
	if kept := drops.takeNewlyKept(); len(kept) > 0 {
		m.log.Warn("keeping copies past the grace period: the view does not show their sellers' new holders yet", "sellers", kept)
	}
}

// requestRound bumps this machine's round epoch and publishes its entry, so that every machine
// sees a membership change and starts a new round.
func (m *Machine) requestRound(ctx context.Context) error {
	m.roundEpoch.Add(1)
	if err := m.publish(ctx); err != nil {
		m.roundEpoch.Add(-1)
		m.log.Warn("asking for a new round failed", "err", err)
		return err
	}
	m.log.Info("asked for a new round")
	return nil
}
