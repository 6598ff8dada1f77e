package coord

import (
	"context"
	"fmt"
	"sort"
	"time"
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
	if _, err := m.cli.MemberRemove(ctx, m.id); err != nil {
		return fmt.Errorf("coord: member %q removes itself: %w", m.cfg.Name, err)
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
