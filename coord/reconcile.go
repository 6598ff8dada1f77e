package coord

import (
	"context"
	"fmt"
	"net/http"
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
//  2. otherwise promote the first (by name) reachable, started learner
//     while voters < MaxVoters (etcd refuses until it caught up: retried on
//     the next pass).
//
// A member that becomes leader starts its reachability clock afresh, so a
// dead member is removed a full grace period after the leader first saw it.
func (m *Member) reconcile(ctx context.Context) {
	defer m.wg.Done()
	period := max(m.cfg.DeadGrace/4, 200*time.Millisecond)
	lastSeen := map[uint64]time.Time{}
	probe := m.cfg.peerHTTPClient(min(time.Second, period))
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
			clear(lastSeen)
			continue
		}
		m.reconcileOnce(ctx, probe, lastSeen)
	}
}

func (m *Member) reconcileOnce(ctx context.Context, probe *http.Client, lastSeen map[uint64]time.Time) {
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
		if _, ok := lastSeen[id]; !ok {
			lastSeen[id] = now
		}
		if reachable(ctx, probe, mb.PeerURLs) {
			lastSeen[id] = now
			alive[id] = true
		}
	}
	for id := range lastSeen {
		if !present[id] {
			delete(lastSeen, id)
		}
	}
	opCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for _, mb := range members {
		id := uint64(mb.ID)
		grace := m.cfg.DeadGrace
		if !startedMember(mb) {
			grace = max(grace, joinHold) // a joiner may take a while to catch up and publish
		}
		if id == m.id || now.Sub(lastSeen[id]) <= grace {
			continue
		}
		if !mb.IsLearner && voters < 3 {
			m.log.Warn("coord reconciler keeps unreachable voter: too few voters to remove it safely",
				"dead", mb.Name, "voters", voters)
			continue
		}
		m.log.Warn("coord reconciler removes unreachable member", "dead", mb.Name,
			"id", fmt.Sprintf("%x", id), "unreachable_for", now.Sub(lastSeen[id]).Round(time.Millisecond))
		if _, err := m.cli.MemberRemove(opCtx, id); err != nil {
			m.log.Warn("coord reconciler: member remove failed", "dead", mb.Name, "err", err)
			return
		}
		m.revokeSessionsOf(opCtx, mb.Name)
		return
	}
	if voters >= m.cfg.MaxVoters {
		return
	}
	for _, mb := range members {
		if !mb.IsLearner || !alive[uint64(mb.ID)] || !startedMember(mb) {
			continue
		}
		if _, err := m.cli.MemberPromote(opCtx, uint64(mb.ID)); err != nil {
			m.log.Debug("coord reconciler: promote not yet possible", "learner", mb.Name, "err", err)
		} else {
			m.log.Info("coord reconciler promoted learner", "learner", mb.Name)
		}
		return
	}
}

func startedMember(mb *membership.Member) bool { return mb.Name != "" && len(mb.ClientURLs) > 0 }

// reachable reports whether any of a member's peer URLs answers HTTP.
func reachable(ctx context.Context, probe *http.Client, peerURLs []string) bool {
	for _, u := range peerURLs {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"/members", nil)
		if err != nil {
			continue
		}
		resp, err := probe.Do(req)
		if err != nil {
			continue
		}
		resp.Body.Close()
		return true
	}
	return false
}
