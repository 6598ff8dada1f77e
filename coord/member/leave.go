package member

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Leave removes this member from the cluster and stops it: a leader first
// hands leadership to another voter, then the member removes itself and
// waits for etcd to stop it. Its data dir is moved aside (it can never be
// restarted on), so the same Config later joins fresh. The last member of
// a cluster cannot leave; it is only stopped.
func (m *Member) Leave(ctx context.Context) error {
	st := m.Status(ctx)
	if len(st.Members) <= 1 {
		m.log.Warn("coord member is the last one: stopping without leaving")
		return m.Close()
	}
	if st.IsLeader {
		if to, ok := transferee(st); ok {
			tctx, cancel := context.WithTimeout(ctx, 5*m.cfg.election())
			err := m.etcd.Server.MoveLeader(tctx, m.id, to)
			cancel()
			if err != nil {
				m.log.Warn("coord leadership transfer before leaving failed", "err", err)
			}
		}
	}
	if err := m.removeSelf(ctx); err != nil {
		return err
	}
	select {
	case <-m.etcd.Server.StopNotify():
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
	}
	if err := m.Close(); err != nil {
		return err
	}
	to, err := moveAside(m.cfg.DataDir, time.Now())
	if err != nil {
		return err
	}
	m.log.Info("coord member left the cluster", "data_moved_to", to)
	return nil
}

// transferee is the first other voter by name.
func transferee(st Status) (uint64, bool) {
	ms := append([]MemberInfo(nil), st.Members...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	for _, mb := range ms {
		if mb.ID != st.ID && !mb.IsLearner && mb.Name != "" {
			return mb.ID, true
		}
	}
	return 0, false
}

// removeSelf asks the cluster to remove this member, through the other
// voters: a member that applies its own removal stops, possibly before it
// replies, so asking itself would leave a committed removal looking like a
// failure ("server stopped"). A reply from a member that stays is decisive.
// etcd refuses membership changes as unhealthy until the member serving the
// request has been connected to a quorum for 5s: that is retried. Any other
// error is decided by the membership itself, read from the others: a member
// no longer listed was removed, whatever the call said. The removal is
// recorded (reason RemovedLeave) through the others.
func (m *Member) removeSelf(ctx context.Context) error {
	others := m.otherVoterClientURLs()
	if len(others) == 0 {
		return fmt.Errorf("coord: member %q removes itself: no other voter to ask", m.cfg.Name)
	}
	cli, err := newClient(m.cfg, others)
	if err != nil {
		return fmt.Errorf("coord: member %q removes itself: client of %v: %w", m.cfg.Name, others, err)
	}
	defer cli.Close()
	removed := func() error {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		recordRemoval(rctx, cli, m.cfg, newRemoval(m.cfg.Name, m.id, m.cfg.Name, RemovedLeave, nil))
		return nil
	}
	for {
		_, err := cli.MemberRemove(ctx, m.id)
		switch {
		case err == nil, errors.Is(err, rpctypes.ErrMemberNotFound): // not found: an earlier try was applied
			return removed()
		case !errors.Is(err, rpctypes.ErrUnhealthy):
			if listed, lerr := isListed(ctx, cli, m.id); lerr == nil && !listed {
				return removed()
			}
			return fmt.Errorf("coord: member %q removes itself: %w", m.cfg.Name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("coord: member %q removes itself: %w (last: %w)", m.cfg.Name, ctx.Err(), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// otherVoterClientURLs are the client URLs of the started voters other than this member.
func (m *Member) otherVoterClientURLs() []string {
	var urls []string
	for _, mb := range m.etcd.Server.Cluster().Members() {
		if uint64(mb.ID) != m.id && !mb.IsLearner {
			urls = append(urls, mb.ClientURLs...)
		}
	}
	sort.Strings(urls)
	return urls
}

// isListed reports whether the cluster, read linearizably, lists member id.
func isListed(ctx context.Context, cli *clientv3.Client, id uint64) (bool, error) {
	resp, err := cli.MemberList(ctx)
	if err != nil {
		return false, err
	}
	for _, mb := range resp.Members {
		if mb.ID == id {
			return true, nil
		}
	}
	return false, nil
}
