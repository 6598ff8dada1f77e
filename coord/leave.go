package coord

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
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

// removeSelf asks the cluster to remove this member, retrying while etcd
// calls the cluster unhealthy: it refuses membership changes until the
// member serving the request has been connected to the others for 5s.
//
// The request goes to this member itself. When it applies its own removal,
// etcd records the member as removed and then stops the server, which may
// happen before the reply is sent: the call then fails ("server stopped", or
// the connection closes) although the removal is committed. So an error is
// decided by the applied membership, not by the reply: once this member's ID
// is recorded as removed, the removal happened, whatever the call said.
func (m *Member) removeSelf(ctx context.Context) error {
	for {
		_, err := m.cli.MemberRemove(ctx, m.id)
		if err == nil || m.removedFromCluster() {
			return nil
		}
		if !errors.Is(err, rpctypes.ErrUnhealthy) {
			return fmt.Errorf("coord: member %q removes itself: %w", m.cfg.Name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("coord: member %q removes itself: %w (last: %w)", m.cfg.Name, ctx.Err(), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// removedFromCluster reports whether this member's own server has applied
// a removal of this member.
func (m *Member) removedFromCluster() bool {
	return m.etcd.Server.IsIDRemoved(m.id)
}
