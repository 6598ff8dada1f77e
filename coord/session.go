package coord

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Session is a lease kept alive in the background. Ephemeral nodes, barrier
// entries, locks and elections are bound to a session and vanish when it
// ends: when it is closed, or when its lease expires because keep-alives
// could not reach a member with quorum for a whole TTL.
//
// TTL floor: etcd raises any lease TTL below ceil(1.5 × election timeout) to
// that floor — 2 s with the default 100 ms ticks and 1000 ms election
// timeout. TTLs are whole seconds; shorter durations round up.
type Session struct {
	cs  *concurrency.Session
	ttl time.Duration
}

// NewSession grants a lease of the given TTL (rounded up to whole seconds)
// and keeps it alive until Close or until it is lost.
func NewSession(ctx context.Context, cli *clientv3.Client, ttl time.Duration) (*Session, error) {
	secs := int((ttl + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	resp, err := cli.Grant(ctx, int64(secs))
	if err != nil {
		return nil, fmt.Errorf("coord: grant session lease (ttl %v): %w", ttl, err)
	}
	cs, err := concurrency.NewSession(cli, concurrency.WithLease(resp.ID), concurrency.WithTTL(int(resp.TTL)))
	if err != nil {
		revokeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_, _ = cli.Revoke(revokeCtx, resp.ID)
		return nil, fmt.Errorf("coord: keep session lease %x alive: %w", resp.ID, err)
	}
	return &Session{cs: cs, ttl: time.Duration(resp.TTL) * time.Second}, nil
}

// Done is closed when the lease is lost or the session is closed.
func (s *Session) Done() <-chan struct{} { return s.cs.Done() }

// Lease is the session's lease ID.
func (s *Session) Lease() clientv3.LeaseID { return s.cs.Lease() }

// TTL is the lease TTL granted by etcd (after its floor was applied).
func (s *Session) TTL() time.Duration { return s.ttl }

// Client is the etcd client the session was created with.
func (s *Session) Client() *clientv3.Client { return s.cs.Client() }

// Close stops the keep-alives and revokes the lease, deleting every key
// bound to it. A lease that already expired is not an error.
func (s *Session) Close(ctx context.Context) error {
	s.cs.Orphan()
	_, err := s.cs.Client().Revoke(ctx, s.cs.Lease())
	if err != nil && !errors.Is(err, rpctypes.ErrLeaseNotFound) {
		return fmt.Errorf("coord: revoke session lease %x: %w", s.cs.Lease(), err)
	}
	return nil
}

// etcdSession returns the underlying etcd session, for etcd's recipes.
func (s *Session) etcdSession() *concurrency.Session { return s.cs }
