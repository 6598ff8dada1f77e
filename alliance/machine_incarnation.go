package alliance

// One incarnation of the machine's etcd member: the work that runs on it (followers, the join,
// rounds, membership, the delegate, the hold sweep), started together and waited for together,
// and what happens when its alliance refuses the machine's command line.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"flightalliance/alliance/ledger"
	"flightalliance/coord"
	"flightalliance/coord/member"
)

// runWithMember runs the machine's work on one incarnation of its etcd member until ctx ends
// (then it leaves the alliance), the HTTP server fails, or the member stops (stopped is true).
func (m *Machine) runWithMember(ctx context.Context, mb *member.Member, serveErr <-chan error) (stopped bool, err error) {
	m.member.Store(mb)
	m.treeNow.Store(coord.NewTree(mb.Client()))

	work, stopWork := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		stopWork()
		wg.Wait()
	}()
	run := func(f func(context.Context)) {
		wg.Add(1)
		go func() { defer wg.Done(); f(work) }()
	}
	run(func(ctx context.Context) { m.view.follow(ctx, m.tree(), m.keys.machines(), m.log) })
	run(m.view.expireDepartures)
	run(func(ctx context.Context) { m.catalog.follow(ctx, m.tree(), m.keys.catalog(), m.log) })
	run(func(ctx context.Context) { m.seats.Follow(ctx, m.tree(), m.log) })
	run(func(ctx context.Context) { m.holds.Follow(ctx, m.tree(), m.log) })
	joined := make(chan error, 1) // never blocks the join, which ends with work
	var settingsRev int64
	run(func(ctx context.Context) {
		var err error
		if settingsRev, err = m.ensureSettings(ctx); err != nil {
			joined <- err
			return
		}
		joined <- m.joinAlliance(ctx)
	})
	select {
	case err := <-joined:
		var refused *ReplicasMismatchError
		var bad *BadSettingsError
		if errors.As(err, &refused) || errors.As(err, &bad) {
			m.refuseStart(mb)
			return false, err
		}
		if err != nil {
			// ensureSettings and joinAlliance retry until their ctx ends, and work ends only when
			// this function returns: no error but a refusal reaches here today. One that did would
			// be a join given up on, and the machine must not run without having joined, nor exit
			// as if asked to stop: it fails.
			return false, fmt.Errorf("joining the alliance: %w", err)
		}
	case <-mb.Done():
		return true, nil
	case <-ctx.Done():
		return false, nil
	}
	run(func(ctx context.Context) { m.followSettings(ctx, settingsRev) })
	run(m.roundLoop)
	run(m.keepMembership)
	run(m.delegateLoop)
	run(ledger.NewSweep(m.ledger, m.holds, m.lineRank, m.log, func() {
		m.metrics.bookings.WithLabelValues("expire", "ok").Inc()
	}).Run)
	m.log.Info("airline server running", "url", m.cfg.AdvertiseURL, "sellers", slices.Sorted(maps.Keys(m.cfg.Sellers)))

	select {
	case <-ctx.Done():
		m.leave()
		return false, nil
	case <-mb.Done():
		return true, nil
	case err := <-serveErr:
		return false, fmt.Errorf("http server: %w", err)
	}
}

// refuseStart takes this machine's etcd member out of the cluster again before the machine exits
// with a command line its alliance refused, so that the others do not wait for it to come back.
func (m *Machine) refuseStart(mb *member.Member) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*m.cfg.CallTimeout)
	defer cancel()
	if err := mb.Leave(ctx); err != nil {
		m.log.Warn("leaving the etcd cluster after a refused start failed; the others remove this member after their grace", "err", err)
	}
}
