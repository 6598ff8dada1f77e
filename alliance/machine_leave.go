package alliance

import (
	"context"
	"time"
)

// leave hands this machine's sellers over before it exits: it announces the leave in its entry,
// waits for the round that moves its copies to commit, then removes its entries and its etcd
// membership. It gives up after LeaveTimeout: the backups still hold every seller.
func (m *Machine) leave() {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.LeaveTimeout)
	defer cancel()
	m.log.Info("leaving the alliance")
	m.leaving.Store(true)
	if m.othersStay() && !m.copies.isJoining() {
		if err := m.publish(ctx); err != nil {
			m.log.Warn("announcing the leave failed", "err", err)
		}
		// Without quorum no round can commit: the others are going too, or this machine is cut
		// off; either way the backups hold every seller it has.
		for ctx.Err() == nil && !m.handedOver() && m.othersStay() && m.member.Load().Status(ctx).HasQuorum {
			select {
			case <-ctx.Done():
			case <-m.view.wait():
			case <-time.After(200 * time.Millisecond):
			}
		}
		if ctx.Err() != nil {
			m.log.Warn("leave timed out before the hand-over round committed; the backups take over")
		}
	} else {
		m.log.Info("nothing to hand over (no other machine stays, or this one holds nothing yet)")
		if m.view.delegate() == m.cfg.Name {
			m.unregisterEverywhere(ctx)
		}
	}
	if sess := m.session(); sess != nil {
		_ = sess.Close(ctx)
	}
	// The etcd member leaves the cluster when others stay. When the whole alliance is shutting
	// down it is only stopped (Run closes it): its data stays, so the same command lines start
	// the alliance again, and no member waits for a cluster too busy shutting down to remove it.
	if m.othersStay() {
		memberCtx, cancelMember := context.WithTimeout(ctx, 10*time.Second)
		defer cancelMember()
		if err := m.member.Load().Leave(memberCtx); err != nil {
			m.log.Warn("leaving the etcd cluster failed; stopping the member without leaving", "err", err)
		}
	}
	m.log.Info("left the alliance")
}

// othersStay reports whether some other live machine is not leaving: someone to hand over to.
func (m *Machine) othersStay() bool {
	for _, e := range m.view.entries() {
		if e.Name != m.cfg.Name && !e.Leaving {
			return true
		}
	}
	return false
}

// handedOver reports whether a committed round has taken every seller from this machine.
func (m *Machine) handedOver() bool {
	p, b := m.copies.assignment()
	return len(p) == 0 && len(b) == 0 && !m.copies.isJoining()
}
