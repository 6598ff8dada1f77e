package member

import (
	"context"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/coord"
)

// sessionsPrefix holds one key per session opened through Member.NewSession, bound to the
// session's lease: /coord/sessions/<member>/<lease>. It lets the reconciler find the sessions of
// a member it removes.
const sessionsPrefix = "/coord/sessions/"

// NewSession opens a session owned by this member. When the reconciler removes a member as dead,
// it also revokes the sessions that member owns: a member cut off from the others may still get
// its keep-alives through to the leader (a partition that drops only its inbound traffic), and
// its ephemeral entries must not outlive its membership.
func (m *Member) NewSession(ctx context.Context, ttl time.Duration) (*coord.Session, error) {
	s, err := coord.NewSession(ctx, m.cli, ttl)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s%s/%x", sessionsPrefix, m.cfg.Name, int64(s.Lease()))
	if _, err := m.cli.Put(ctx, key, "", clientv3.WithLease(s.Lease())); err != nil {
		_ = s.Close(ctx)
		return nil, fmt.Errorf("coord: record session of member %q: %w", m.cfg.Name, err)
	}
	return s, nil
}

// revokeSessionsOf ends the sessions a removed member owned.
func (m *Member) revokeSessionsOf(ctx context.Context, member string) {
	resp, err := m.cli.Get(ctx, sessionsPrefix+member+"/", clientv3.WithPrefix())
	if err != nil {
		m.log.Warn("coord reconciler: listing the sessions of a removed member failed", "member", member, "err", err)
		return
	}
	for _, kv := range resp.Kvs {
		if _, err := m.cli.Revoke(ctx, clientv3.LeaseID(kv.Lease)); err != nil {
			m.log.Warn("coord reconciler: revoking a session of a removed member failed", "member", member,
				"lease", fmt.Sprintf("%x", kv.Lease), "err", err)
			continue
		}
		m.log.Info("coord reconciler revoked a session of the removed member", "member", member,
			"lease", fmt.Sprintf("%x", kv.Lease))
	}
}
