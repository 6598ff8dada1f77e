package member

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"time"

	"go.etcd.io/etcd/server/v3/etcdserver/api/membership"
)

// reconcile runs on every member but acts only on the raft leader, so
// exactly one member changes the membership at a time. Each pass it probes
// every other member's peer URL and then makes at most one change:
//  1. remove a member unreachable for longer than DeadGrace — a member that
//     never started (a joiner catching up) gets at least the join's own
//     bound — (a voter only while at least 3 voters remain
//     reachable-or-not, so a 2-voter cluster is never shrunk to 1 by a
//     flaky probe);
//  2. otherwise, while voters < MaxVoters, promote the reachable, started
//     learner whose zone has the fewest voters, then by zone name, then by
//     member name (nextVoter: round-robin over the zones, see zones.go),
//     reading the zones only then (etcd refuses until the learner caught up:
//     retried on the next pass).
//
// A member that becomes leader starts its reachability clock afresh, so a
// dead member is removed a full grace period after the leader first saw it;
// so does a leader whose reconciler did not run for a while (maxIdle: this
// process was paused, or starved), since the members were not watched
// meanwhile.
// Why a member is judged unreachable — its probe's error — is logged when it
// starts failing (at most once per grace, see unreachables.observe), and goes
// into the removal's log line and record (see Removal).
func (m *Member) reconcile(ctx context.Context) {
	defer m.wg.Done()
	period := max(m.cfg.DeadGrace/4, 200*time.Millisecond)
	reach := newUnreachables()
	client := m.cfg.peerHTTPClient(min(time.Second, period))
	probe := func(ctx context.Context, peerURLs []string) error { return probePeer(ctx, client, peerURLs) }
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.etcd.Server.StopNotify():
			return
		case <-tick.C:
		}
		if uint64(m.etcd.Server.Leader()) != m.id {
			reach.reset()
			continue
		}
		if idle, fresh := reach.resume(time.Now(), maxIdle(period)); fresh {
			m.log.Info("coord reconciler did not run for a while (this process was paused or starved): its reachability clocks start afresh",
				"idle", idle.Round(time.Millisecond))
		}
		m.reconcileOnce(ctx, probe, reach)
		reach.ran(time.Now())
	}
}

// maxIdle is the longest a leader's reconciler may go between passes (from the end of one to the
// start of the next; a pass's probes may take long) and still count the time as watched: two
// ticks and a second of scheduling.
func maxIdle(period time.Duration) time.Duration { return 2*period + time.Second }

// reconcileOnce is one pass of the leader's reconciler; probe asks a member's peer URLs whether
// it is there (probePeer).
func (m *Member) reconcileOnce(ctx context.Context, probe func(context.Context, []string) error, reach *unreachables) {
	members := m.etcd.Server.Cluster().Members()
	sort.Slice(members, func(i, j int) bool { return members[i].Name < members[j].Name })
	now := time.Now()
	present := map[uint64]bool{}
	alive := map[uint64]bool{m.id: true}
	voters := 0
	for _, mb := range members {
		id := uint64(mb.ID)
		present[id] = true
		if !mb.IsLearner {
			voters++
		}
		if id == m.id {
			continue
		}
		err := probe(ctx, mb.PeerURLs)
		alive[id] = err == nil
		if reach.observe(id, now, err, m.graceOf(mb)) {
			m.log.Warn("coord reconciler cannot reach member", "unreachable", mb.Name, "id", fmt.Sprintf("%x", id),
				"unreachable_for", reach.downFor(id, now).Round(time.Millisecond), "remove_after", m.graceOf(mb), "err", err)
		}
	}
	reach.keep(present)
	opCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for _, mb := range members {
		id := uint64(mb.ID)
		if id == m.id || reach.downFor(id, now) <= m.graceOf(mb) {
			continue
		}
		if !mb.IsLearner && voters < 3 {
			m.log.Warn("coord reconciler keeps unreachable voter: too few voters to remove it safely",
				"dead", mb.Name, "voters", voters, "err", reach.lastErr(id))
			continue
		}
		// The verdict rests on this pass's probe, taken up to a second per member down ago: a
		// partition healed since must not cost the member its place. Ask once more. A member
		// that comes back while this last probe is under way is removed all the same (and
		// rejoins): the removal's log line says when the probe began, so whoever healed it can
		// tell such a removal from one of a member that was reachable.
		lastProbe := time.Now()
		if err := probe(ctx, mb.PeerURLs); err == nil {
			reach.observe(id, time.Now(), nil, m.graceOf(mb))
			m.log.Info("coord reconciler keeps member: it answered again just before its removal", "member", mb.Name)
			continue
		}
		cause := reach.lastErr(id)
		m.log.Warn("coord reconciler removes unreachable member", "dead", mb.Name,
			"id", fmt.Sprintf("%x", id), "unreachable_for", reach.downFor(id, now).Round(time.Millisecond),
			"last_probe_at", lastProbe.UTC().Format(time.RFC3339Nano), "err", cause)
		if _, err := m.cli.MemberRemove(opCtx, id); err != nil {
			m.log.Warn("coord reconciler: member remove failed", "dead", mb.Name, "err", err)
			return
		}
		recordRemoval(opCtx, m.cli, m.cfg, newRemoval(mb.Name, id, m.cfg.Name, RemovedUnreachable, cause))
		m.revokeSessionsOf(opCtx, mb.Name)
		return
	}
	if voters >= m.cfg.MaxVoters {
		return
	}
	eligible := func(mb *membership.Member) bool {
		return mb.IsLearner && alive[uint64(mb.ID)] && startedMember(mb)
	}
	if !slices.ContainsFunc(members, eligible) {
		return
	}
	recorded, err := readZones(opCtx, m.cli, false)
	if err != nil {
		m.log.Debug("coord reconciler: no promotion without the zones", "err", err)
		return
	}
	var cands []candidate
	ids := map[string]uint64{}
	for _, mb := range members {
		if mb.Name == "" { // never started: neither counted nor promoted
			continue
		}
		ids[mb.Name] = uint64(mb.ID)
		cands = append(cands, candidate{name: mb.Name, zone: m.zoneOf(recorded, mb.Name),
			learner: mb.IsLearner, eligible: eligible(mb)})
	}
	name, ok := nextVoter(cands)
	if !ok {
		return
	}
	if _, err := m.cli.MemberPromote(opCtx, ids[name]); err != nil {
		m.log.Debug("coord reconciler: promote not yet possible", "learner", name, "err", err)
	} else {
		m.log.Info("coord reconciler promoted learner", "learner", name, "zone", m.zoneOf(recorded, name))
	}
}

// graceOf is how long mb may stay unreachable before it is removed: DeadGrace, and for a
// member that never started (a joiner catching up) at least the join's own bound.
func (m *Member) graceOf(mb *membership.Member) time.Duration {
	if !startedMember(mb) {
		return max(m.cfg.DeadGrace, joinHold) // a joiner may take a while to catch up and publish
	}
	return m.cfg.DeadGrace
}

func startedMember(mb *membership.Member) bool { return mb.Name != "" && len(mb.ClientURLs) > 0 }

// probePeer asks each of a member's peer URLs for GET /members: nil as soon as one answers
// HTTP (any status), otherwise why none did.
func probePeer(ctx context.Context, probe *http.Client, peerURLs []string) error {
	if len(peerURLs) == 0 {
		return errors.New("no peer URL")
	}
	var errs []error
	for _, u := range peerURLs {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"/members", nil)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		resp, err := probe.Do(req)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errors.Join(errs...)
}
