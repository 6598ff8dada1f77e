package alliance

import (
	"context"
	"errors"
	"time"
)

// roundLoop runs a placement round for every membership change. A round that fails without the
// membership moving on (an etcd timeout, a source that cannot send) would never be retried by the
// others, so after a while this machine asks for a new round by bumping its entry's epoch.
func (m *Machine) roundLoop(ctx context.Context) {
	var handled int64
	var retryAt time.Time
	for ctx.Err() == nil {
		changed := m.view.wait()
		rev := m.view.membership()
		if rev > handled && m.inView() && m.sessionLive() {
			start := time.Now()
			out := m.runRound(ctx, rev)
			m.recordRound(out, time.Since(start))
			switch {
			case out.Committed && out.Err == nil:
				handled, retryAt = rev, time.Time{}
			case errors.Is(out.Err, errSuperseded):
				continue
			default:
				m.log.Warn("round failed", "round", rev, "committed_elsewhere", out.Committed, "err", out.Err)
				handled, retryAt = rev, time.Now().Add(3*m.cfg.SessionTTL)
			}
		}
		if m.view.takeRelisted() && m.requestRound(ctx) != nil {
			retryAt = time.Now().Add(time.Second)
		}
		if !retryAt.IsZero() && time.Now().After(retryAt) {
			switch {
			case m.view.membership() > handled:
				retryAt = time.Time{}
			case m.requestRound(ctx) == nil:
				retryAt = time.Time{}
			default:
				retryAt = time.Now().Add(time.Second)
			}
		}
		if m.republish.Load() {
			if err := m.publish(ctx); err == nil {
				m.republish.Store(false)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-time.After(time.Second):
		}
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
