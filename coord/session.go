package coord

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Session is a lease kept alive in the background. Ephemeral nodes, barrier
// entries, locks and elections are bound to a session and vanish when it
// ends: when it is closed, or when its lease is gone.
//
// Keep-alives that get no answer for a whole TTL — no member with quorum
// answered, as while the etcd leader is cut off and the others elect a new
// one — end the client's keep-alive, but not necessarily the lease: a new
// leader extends every lease it takes over. So the session then renews the
// lease itself (see resume) and, once the regular keep-alive answers again,
// carries on (nothing bound to it was lost); only a lease that is gone, or
// that cannot be renewed for a whole TTL, ends the session.
//
// TTL floor: etcd raises any lease TTL below ceil(1.5 × election timeout) to
// that floor — 2 s with the default 100 ms ticks and 1000 ms election
// timeout. TTLs are whole seconds; shorter durations round up.
type Session struct {
	cli  *clientv3.Client
	id   clientv3.LeaseID
	ttl  time.Duration
	done chan struct{} // closed when the session ended
	stop context.CancelFunc
	ctx  context.Context // ends with Close

	mu sync.Mutex
	cs *concurrency.Session // the current keep-alive of the lease
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
	s := &Session{cli: cli, id: resp.ID, ttl: time.Duration(resp.TTL) * time.Second, cs: cs, done: make(chan struct{})}
	s.ctx, s.stop = context.WithCancel(context.Background())
	go s.keep()
	return s, nil
}

// keep follows the current keep-alive; when it ends while the session is open, it resumes the
// lease if it still lives, and ends the session otherwise.
func (s *Session) keep() {
	defer close(s.done)
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.current().Done():
		}
		if s.ctx.Err() != nil || !s.resume() {
			return
		}
	}
}

// resume finds out, for up to one TTL, whether the lease still lives, and if it does, keeps it
// alive again and reports true. It asks with KeepAliveOnce, which renews the lease on a stream of
// its own: the client's shared keep-alive stream may stay stuck for several seconds behind a
// renewal its member forwarded to the old leader (etcd serves a stream's renewals one at a time).
// Until the regular keep-alive answers again — it has lived a TTL — resume goes on renewing the
// lease itself every third of a TTL, so that it cannot expire meanwhile.
func (s *Session) resume() bool {
	var cs *concurrency.Session
	started, lastRenew := time.Time{}, time.Now()
	for {
		ctx, cancel := context.WithTimeout(s.ctx, min(time.Second, s.ttl/3))
		_, err := s.cli.KeepAliveOnce(ctx, s.id)
		cancel()
		switch {
		case s.ctx.Err() != nil, errors.Is(err, rpctypes.ErrLeaseNotFound):
			if cs != nil {
				cs.Orphan()
			}
			return false // closed, or the lease is gone with everything bound to it
		case err == nil:
			lastRenew = time.Now()
		case time.Since(lastRenew) > s.ttl:
			if cs != nil {
				cs.Orphan()
			}
			return false // not confirmed for a whole TTL: it may be gone
		}
		if err == nil && (cs == nil || chanClosed(cs.Done())) {
			if cs, err = concurrency.NewSession(s.cli, concurrency.WithLease(s.id), concurrency.WithTTL(int(s.ttl/time.Second))); err != nil {
				cs = nil
			} else {
				started = time.Now()
			}
		}
		if cs != nil && !chanClosed(cs.Done()) && time.Since(started) > s.ttl {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.ctx.Err() != nil { // Close ran meanwhile: it must not be kept alive
				cs.Orphan()
				return false
			}
			s.cs = cs
			return true
		}
		select {
		case <-s.ctx.Done():
		case <-time.After(s.ttl / 3):
		}
	}
}

func chanClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func (s *Session) current() *concurrency.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cs
}

// Done is closed when the lease is lost or the session is closed.
func (s *Session) Done() <-chan struct{} { return s.done }

// Doubt is closed when the keep-alives in force now end — the lease may be gone — or when the
// session ends. What must stop the moment the lease might have expired (a lock, a lead, a
// barrier's wait) watches Doubt rather than Done: a session that resumes keeps its lease and
// nodes, but not what was built on the certainty that it had them.
func (s *Session) Doubt() <-chan struct{} { return s.current().Done() }

// Lease is the session's lease ID.
func (s *Session) Lease() clientv3.LeaseID { return s.id }

// TTL is the lease TTL granted by etcd (after its floor was applied).
func (s *Session) TTL() time.Duration { return s.ttl }

// Client is the etcd client the session was created with.
func (s *Session) Client() *clientv3.Client { return s.cli }

// Close stops the keep-alives and revokes the lease, deleting every key
// bound to it. A lease that already expired is not an error.
func (s *Session) Close(ctx context.Context) error {
	s.stop()
	s.current().Orphan()
	<-s.done
	s.current().Orphan() // a keep-alive resume started before the stop ends too
	_, err := s.cli.Revoke(ctx, s.id)
	if err != nil && !errors.Is(err, rpctypes.ErrLeaseNotFound) {
		return fmt.Errorf("coord: revoke session lease %x: %w", s.id, err)
	}
	return nil
}

// etcdSession returns the current underlying etcd session, for etcd's recipes (they use its
// lease and client only).
func (s *Session) etcdSession() *concurrency.Session { return s.current() }
