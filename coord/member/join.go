package member

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.etcd.io/etcd/server/v3/embed"
)

// joinLockKey serializes joins. A joiner starts with the member list its
// add returned, and etcd checks that list against the running cluster's:
// concurrent adds make each other's lists stale, the joiners fail, remove
// their half-added selves and retry — with fifteen learners joining at
// once, some never got in. So a join holds this lock from its add until
// its member is ready.
const joinLockKey = "/coord/join-lock"

// joinHold bounds one join while it holds the lock (and is the lock's
// lease, so a joiner that dies lets the next one in after it).
const joinHold = 30 * time.Second

// join adds this member to the running cluster at endpoints as a learner
// and starts it with ClusterState=existing, one joiner at a time. Adding is
// retried: etcd refuses membership changes until the member serving the
// request has been connected to a quorum for 5 seconds.
func join(ctx context.Context, cfg Config, endpoints []string) (*embed.Etcd, error) {
	cli, err := newClient(cfg, endpoints)
	if err != nil {
		return nil, fmt.Errorf("coord: client for joining through %v: %w", endpoints, err)
	}
	defer cli.Close()
	unlock, err := lockJoins(ctx, cli)
	if err != nil {
		return nil, fmt.Errorf("coord: member %q waits for its turn to join through %v: %w", cfg.Name, endpoints, err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(ctx, joinHold)
	defer cancel()
	var initial string
	for {
		initial, err = addSelf(ctx, cli, cfg)
		if err == nil {
			break
		}
		cfg.Logger.Info("coord member add refused, retrying", "through", endpoints, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("coord: member %q could not join through %v: %w (last: %w)",
				cfg.Name, endpoints, context.Cause(ctx), err)
		case <-time.After(500 * time.Millisecond):
		}
	}
	cfg.Logger.Info("coord member joins as a learner", "initial_cluster", initial)
	ecfg, err := cfg.embedConfig(embed.ClusterStateFlagExisting, initial)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		e, _, err := startEtcd(ctx, ecfg)
		// etcd checks a joiner's initial cluster against the member list of the first peer that
		// answers; a follower that has not applied this member's addition yet lists one member
		// fewer ("member count is unequal"). It will have applied it in a moment: try again.
		switch {
		case err == nil:
			return e, nil
		case strings.Contains(err.Error(), "member count is unequal") && attempt < 20:
			cfg.Logger.Info("coord member's addition not applied everywhere yet; starting again", "err", err)
			select {
			case <-ctx.Done():
				return nil, err
			case <-time.After(250 * time.Millisecond):
			}
		default:
			return nil, err
		}
	}
}

// lockJoins waits for the join lock and returns its release.
func lockJoins(ctx context.Context, cli *clientv3.Client) (unlock func(), err error) {
	sess, err := concurrency.NewSession(cli, concurrency.WithTTL(int(joinHold/time.Second)), concurrency.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	mu := concurrency.NewMutex(sess, joinLockKey)
	if err := mu.Lock(ctx); err != nil {
		sess.Close()
		return nil, err
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = mu.Unlock(uctx)
		sess.Close()
	}, nil
}

// addSelf removes stale members with this name or peer URL (a previous
// life of this member, or a failed earlier join) — recording each removal,
// reason RemovedStale — records this member's zone, adds this member as a
// learner, and returns the initial-cluster string to start it with.
func addSelf(ctx context.Context, cli *clientv3.Client, cfg Config) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	list, err := cli.MemberList(ctx)
	if err != nil {
		return "", fmt.Errorf("member list: %w", err)
	}
	for _, mb := range list.Members {
		if mb.Name == cfg.Name || slices.Contains(mb.PeerURLs, cfg.PeerURL) {
			cfg.Logger.Warn("coord removes stale member before joining", "stale", mb.Name, "id", fmt.Sprintf("%x", mb.ID))
			_, err := cli.MemberRemove(ctx, mb.ID)
			switch {
			case err == nil:
				recordRemoval(ctx, cli, cfg, newRemoval(mb.Name, mb.ID, cfg.Name, RemovedStale, nil))
			case !errors.Is(err, rpctypes.ErrMemberNotFound): // not found: removed meanwhile, by someone else
				return "", fmt.Errorf("remove stale member %q (%x): %w", mb.Name, mb.ID, err)
			}
		}
	}
	// The zone first, so that the reconciler never counts this learner in the wrong zone.
	if _, err := putZone(ctx, cli, cfg.Name, cfg.Zone); err != nil {
		return "", fmt.Errorf("record zone %q: %w", cfg.Zone, err)
	}
	resp, err := cli.MemberAddAsLearner(ctx, []string{cfg.PeerURL})
	if err != nil {
		return "", fmt.Errorf("add learner %s: %w", cfg.PeerURL, err)
	}
	var parts []string
	for _, mb := range resp.Members {
		name := mb.Name
		switch {
		case mb.ID == resp.Member.ID:
			name = cfg.Name
		case name == "":
			// Not started yet (another join in flight): etcd matches
			// members by peer URL, but names must be distinct.
			name = fmt.Sprintf("unstarted-%x", mb.ID)
		}
		for _, u := range mb.PeerURLs {
			parts = append(parts, name+"="+u)
		}
	}
	return strings.Join(parts, ","), nil
}

// promoteSelf turns this learner into a voter while voters < MaxVoters —
// unless another started learner's zone has fewer voters than its own (see
// nextVoter; every learner taken as reachable): it then stays a learner and
// leaves the choice to the reconciler, which probes them — retrying while
// etcd says the learner has not caught up, until ctx ends.
func (m *Member) promoteSelf(ctx context.Context) error {
	for {
		err := m.tryPromoteSelf(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("coord: promote member %q: %w (last: %w)", m.cfg.Name, context.Cause(ctx), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (m *Member) tryPromoteSelf(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	list, err := m.cli.MemberList(ctx)
	if err != nil {
		return err
	}
	voters, learner := 0, false
	for _, mb := range list.Members {
		if mb.ID == m.id {
			learner = mb.IsLearner
		} else if !mb.IsLearner {
			voters++
		}
	}
	if learner && voters >= m.cfg.MaxVoters {
		return nil // stays a learner until a voter leaves
	}
	if learner {
		recorded, err := readZones(ctx, m.cli, false)
		if err != nil {
			return err
		}
		var cands []candidate
		for _, mb := range list.Members {
			name, self := mb.Name, mb.ID == m.id
			if self {
				name = m.cfg.Name
			} else if name == "" {
				continue // never started: neither counted nor promoted
			}
			cands = append(cands, candidate{name: name, zone: m.zoneOf(recorded, name), learner: mb.IsLearner,
				eligible: self || len(mb.ClientURLs) > 0})
		}
		// Only a zone with fewer voters comes first here: between zones with as many, which
		// learner gets the seat does not change the spread, and a learner alone (or with no
		// zones given) promotes itself as it always did.
		zone, voters := m.zoneOf(recorded, m.cfg.Name), zoneVoters(cands)
		if next, ok := nextVoter(cands); ok && voters[m.zoneOf(recorded, next)] < voters[zone] {
			m.log.Info("coord member stays a learner: another learner's zone has fewer voters, the reconciler chooses",
				"next", next, "next_zone", m.zoneOf(recorded, next), "zone", zone)
			return nil
		}
		if _, err := m.cli.MemberPromote(ctx, m.id); err != nil {
			return err
		}
	}
	// Wait until this member applied its own promotion, so that Start
	// returns with a local view (Status, endpoints) that agrees.
	for m.isLearner() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("promotion not applied locally: %w", ctx.Err())
		case <-time.After(m.cfg.tick()):
		}
	}
	m.log.Info("coord member promoted to voter")
	m.syncEndpoints()
	return nil
}
