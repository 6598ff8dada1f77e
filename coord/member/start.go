package member

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

// Start starts this member and decides by itself how, so that re-running
// the same Config always works:
//   - the data dir holds a member still in the cluster: restart on it;
//   - the data dir holds a member the cluster removed meanwhile (etcd stops
//     it as "permanently removed"): move the data dir aside to
//     <dir>.removed-<unix> and continue as with no data;
//   - no data, and a running cluster answers (through Join, or through the
//     other InitialCluster peers' GET /members): join it as a learner —
//     after removing a stale member with this name or peer URL — and get
//     promoted while voters < MaxVoters; unless that cluster is the static
//     bootstrap that lists this member as not yet started, or nobody
//     answers: then bootstrap from InitialCluster — when this member is one
//     of the MaxVoters names chosen round-robin over the zones of
//     PeerZones; the others wait for the cluster to run and join it as
//     learners.
//
// Start returns when the member is ready, or fails after StartTimeout or
// when ctx ends; it never blocks forever.
func Start(ctx context.Context, cfg Config) (*Member, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.StartTimeout,
		fmt.Errorf("%w after %v", ErrStartTimeout, cfg.StartTimeout))
	defer cancel()
	removed := false
	if hasMemberData(cfg.DataDir) {
		e, err := restart(ctx, cfg)
		switch {
		case err == nil:
			cfg.Logger.Info("coord member restarted on its data", "dir", cfg.DataDir)
			return newMember(cfg, e)
		case !errors.Is(err, ErrRemoved):
			return nil, err
		}
		to, err := moveAside(cfg.DataDir, time.Now())
		if err != nil {
			return nil, err
		}
		cfg.Logger.Warn("coord member was removed from the cluster: old data moved aside, joining fresh", "moved_to", to)
		removed = true
	}
	e, err := startFresh(ctx, cfg, !removed)
	if err != nil {
		return nil, err
	}
	m, err := newMember(cfg, e)
	if err != nil {
		return nil, err
	}
	if err := m.promoteSelf(ctx); err != nil {
		m.log.Warn("coord member stays a learner for now; the reconciler will promote it", "err", err)
	}
	return m, nil
}

// restart starts etcd on existing data. ErrRemoved when the member stopped
// because the cluster removed it.
func restart(ctx context.Context, cfg Config) (*embed.Etcd, error) {
	ecfg, err := cfg.embedConfig(embed.ClusterStateFlagExisting, cfg.Name+"="+cfg.PeerURL)
	if err != nil {
		return nil, err
	}
	// Ask first: a running member that no longer lists this member's peer URL means it was
	// removed. Starting etcd on the old data anyway would have it told so and stop itself, and
	// etcd 3.7 can panic when it stops under a serializable read that another machine's client
	// sent it meanwhile (bbolt's closed transaction) — the whole machine would die.
	if v := discover(ctx, cfg, nil); v != nil && !v.listsPeer(cfg.PeerURL) {
		cfg.Logger.Warn("coord member is no longer listed by the running cluster: treating it as removed",
			"member", cfg.Name, "asked", v.source)
		return nil, fmt.Errorf("%w: member %q is not listed by %s", ErrRemoved, cfg.Name, v.source)
	}
	// A member removed while it was down may never be told (its peers answer 410 Gone only on
	// streams it may never get), and would wait forever to be ready. While it waits, it asks
	// the running cluster for its committed member list.
	e, res, err := startEtcdChecked(ctx, ecfg, func(e *embed.Etcd) bool {
		return removedByCluster(ctx, cfg, e)
	})
	switch res {
	case started:
		return e, nil
	case stoppedEarly:
		// etcd stops a member by itself while it starts only when a peer answers that it was
		// removed (rafthttp's 410 Gone); asking the peers again is a confirmation, not a
		// condition: a member cut off from some of them (a partition, a proxy) may not get an
		// answer, and must not be left unable to start.
		id := uint64(e.Server.MemberID())
		confirmed := e.Server.IsIDRemoved(id) || removedByPeers(ctx, cfg, e, id)
		cfg.Logger.Warn("coord member stopped by itself while restarting on its data: treating it as removed",
			"member", cfg.Name, "id", fmt.Sprintf("%x", id), "confirmed_by_peers", confirmed, "err", err)
		return nil, fmt.Errorf("%w: member %q (%x)", ErrRemoved, cfg.Name, id)
	}
	return nil, err
}

// removedByCluster reports whether the running cluster's committed member list (a
// linearizable MemberList through the other members this one knows, which needs their quorum)
// lacks this member. Without an answer it reports false: only the cluster decides a removal.
func removedByCluster(ctx context.Context, cfg Config, e *embed.Etcd) bool {
	id := uint64(e.Server.MemberID())
	endpoints := slices.Clone(cfg.Join)
	for _, mb := range e.Server.Cluster().Members() {
		if uint64(mb.ID) != id {
			endpoints = append(endpoints, mb.ClientURLs...)
		}
	}
	if len(endpoints) == 0 {
		return false
	}
	v := listByClient(ctx, cfg, endpoints)
	return v != nil && !v.has(id)
}

// removedByPeers reports whether a running member's list lacks id.
func removedByPeers(ctx context.Context, cfg Config, e *embed.Etcd, id uint64) bool {
	var known []string
	for _, mb := range e.Server.Cluster().Members() {
		known = append(known, mb.PeerURLs...)
	}
	v := discover(ctx, cfg, known)
	return v != nil && !v.has(id)
}

// startFresh starts a member with an empty data dir: join a running
// cluster, or — when mayBootstrap — bootstrap the initial one. A member the
// cluster removed knows that a cluster runs: it only ever joins (a
// bootstrap would be refused as "permanently removed", again and again).
func startFresh(ctx context.Context, cfg Config, mayBootstrap bool) (*embed.Etcd, error) {
	peers, err := cfg.bootstrapPeers()
	if err != nil {
		return nil, err
	}
	_, inInitial := peers[cfg.Name]
	inInitial = inInitial && mayBootstrap
	for {
		v := discover(ctx, cfg, nil)
		switch {
		case v != nil && v.expectsBootstrap(cfg) && inInitial, v == nil && inInitial:
			return bootstrap(ctx, cfg, peers.String())
		case v != nil && len(v.clientURLs()) > 0:
			return join(ctx, cfg, v.clientURLs())
		}
		cfg.Logger.Info("coord member waits for a running cluster to join", "join", cfg.Join)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("coord: member %q found no running cluster to join: %w", cfg.Name, context.Cause(ctx))
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// bootstrap starts the member of a new cluster formed by the members of initial.
func bootstrap(ctx context.Context, cfg Config, initial string) (*embed.Etcd, error) {
	cfg.Logger.Info("coord member bootstraps the cluster", "initial_cluster", initial)
	ecfg, err := cfg.embedConfig(embed.ClusterStateFlagNew, initial)
	if err != nil {
		return nil, err
	}
	e, _, err := startEtcd(ctx, ecfg)
	if err != nil {
		return nil, err
	}
	return e, nil
}
