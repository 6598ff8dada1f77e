package alliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"flightalliance/alliance/placement"
	"flightalliance/coord"
)

// errSuperseded ends a round that a newer membership change made pointless.
var errSuperseded = errors.New("round superseded by a newer membership change")

// errRoundTimeout ends a round that could not enter and fetch within Config.RoundTimeout.
var errRoundTimeout = errors.New("round did not finish entering and fetching in time")

// roundOutcome is what one attempt at a round came to.
type roundOutcome struct {
	ID        int64
	Committed bool
	Plan      placement.Result
	Fetched   int
	Err       error

	// Gen and Unassigned, after a commit: the copies' generation the round started from, and the
	// sellers this machine gave away, whose copies it drops once their new holders publish.
	Gen        uint64
	Unassigned []string
}

// runRound takes part in the placement round of membership revision rev:
//
//  1. enter the round's barrier, publishing what this machine holds (its snapshotOld entry);
//  2. plan from every participant's published holding — every machine computes the same plan;
//  3. fetch the copies the plan gives this machine from the holders named in the snapshot;
//  4. leave the barrier: it commits only if every participant fetched what it had to;
//  5. adopt the new assignment, write this machine's own entries, and drop what it no longer holds
//     once the tree shows the new holders.
//
// A newer membership change before step 4 abandons the round without dropping anything. Once this
// machine has left (written its done mark) it waits for the decisive outcome, whatever happens.
func (m *Machine) runRound(ctx context.Context, rev int64) roundOutcome {
	out := roundOutcome{ID: rev}
	participants, err := m.participants(ctx, rev)
	if err != nil {
		out.Err = err
		return out
	}
	if !slices.Contains(participants, m.cfg.Name) {
		out.Err = fmt.Errorf("this machine is not a member at revision %d", rev)
		return out
	}
	m.setPhase(rev, "enter")
	// A round is abandoned as soon as the membership moves on.
	var watcher sync.WaitGroup
	defer watcher.Wait() // the supersession watch ends with the round
	roundCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	roundCtx, cancelDeadline := context.WithTimeoutCause(roundCtx, m.cfg.RoundTimeout, errRoundTimeout)
	defer cancelDeadline()
	watcher.Go(func() { m.cancelWhenSuperseded(roundCtx, cancel, rev) })

	gen := m.copies.generation()
	me := m.copies.holding(m.cfg.Name, m.leaving.Load(), func(code string) bool {
		return !m.view.heldByOthers(code, m.cfg.Name)
	})
	me.Zone = m.cfg.Zone
	value, _ := json.Marshal(me)
	barrier := coord.NewBarrier(m.tree(), m.session(), m.keys.round(strconv.FormatInt(rev, 10)), m.cfg.Name, participants)
	values, err := barrier.Enter(roundCtx, value)
	if err != nil {
		out.Err = m.abandon(ctx, barrier, roundCtx, err)
		return out
	}
	snap, holdings, err := snapshotOf(values)
	if err == nil {
		snap.Replicas, err = m.replicasAt(roundCtx, rev)
	}
	if err != nil {
		out.Err = m.abandon(ctx, barrier, roundCtx, err)
		return out
	}
	plan, err := placement.Plan(snap)
	if err != nil {
		out.Err = m.abandon(ctx, barrier, roundCtx, fmt.Errorf("plan: %w", err))
		return out
	}
	out.Plan = plan

	m.setPhase(rev, "fetch")
	fetched, err := m.fetchAll(roundCtx, plan, holdings)
	if err != nil {
		out.Err = m.abandon(ctx, barrier, roundCtx, err)
		return out
	}
	out.Fetched = len(fetched)

	m.setPhase(rev, "leave")
	if err := barrier.Leave(ctx); err != nil {
		out.Err = fmt.Errorf("round %d did not commit: %w", rev, err)
		return out
	}
	out.Committed = true
	m.setPhase(rev, "commit")
	out.Gen = gen
	out.Unassigned, out.Err = m.commit(ctx, gen, plan, fetched)
	return out
}

// abandon drops out of a round that cannot finish here. The reason reported is the membership
// change when there was one, so that logs say why.
//
// The abort is retried until etcd applies it (for up to the round timeout, or until the machine
// stops): a round is often abandoned because etcd did not answer, and an enter key left behind —
// bound to this machine's session, which lives on — would hold every other participant in the
// round's leave, and so out of every later round, for as long as the session lives (seen once in
// the booking chaos: a partitioned machine's abort failed, the others waited past 90 s).
func (m *Machine) abandon(ctx context.Context, b *coord.Barrier, roundCtx context.Context, cause error) error {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.RoundTimeout)
	defer cancel()
	if err := untilApplied(ctx, m.cfg.CallTimeout, b.Abort); err != nil {
		m.log.Warn("could not leave an abandoned round; the others wait for this machine's session to end", "err", err)
	}
	if roundCtx.Err() != nil && errors.Is(context.Cause(roundCtx), errSuperseded) {
		return errSuperseded
	}
	return cause
}

// untilApplied calls op — idempotent, each call bounded by callTimeout — until it succeeds or ctx
// ends, waiting 100 ms after the first failure, doubling up to a second; it returns op's last
// error when ctx ended first.
func untilApplied(ctx context.Context, callTimeout time.Duration, op func(context.Context) error) error {
	wait := 100 * time.Millisecond
	for {
		callCtx, cancel := context.WithTimeout(ctx, callTimeout)
		err := op(callCtx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// cancelWhenSuperseded cancels the round once the view shows a membership change newer than rev.
func (m *Machine) cancelWhenSuperseded(ctx context.Context, cancel context.CancelCauseFunc, rev int64) {
	for {
		changed := m.view.wait()
		if m.view.membership() > rev {
			cancel(errSuperseded)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// participants are the machines whose entries exist at revision rev, read at that revision so
// that every machine gets the same list.
func (m *Machine) participants(ctx context.Context, rev int64) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	children, _, err := m.tree().ChildrenData(ctx, m.keys.machines(), rev)
	if err != nil {
		return nil, fmt.Errorf("machines at revision %d: %w", rev, err)
	}
	names := make([]string, 0, len(children))
	for _, c := range children {
		names = append(names, c.Name)
	}
	return names, nil
}
