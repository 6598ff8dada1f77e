package alliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"flightalliance/alliance/placement"
	"flightalliance/coord"
)

// This file is the machine's membership of its alliance: its session and its own ephemeral
// entry in the tree (docs/api.md, "The coordination tree"). Registering with the search servers is
// another matter, in delegate_loop.go and delegate_registration.go.

// session is this machine's current etcd session (nil until it first joined).
func (m *Machine) session() *coord.Session { return m.sess.Load() }

// sessionLive reports whether this machine's session is still alive. After it is lost, the
// machine's old entry may linger in the tree until etcd expires its lease; the machine must not
// take part in rounds through it (its copies have rejoined and no longer matches that entry) until
// joinAlliance has given it a new session and entry.
func (m *Machine) sessionLive() bool {
	sess := m.session()
	if sess == nil {
		return false
	}
	select {
	case <-sess.Done():
		return false
	default:
		return true
	}
}

// joinAlliance opens a session and creates this machine's entry, replacing the entries of an
// earlier incarnation of the same machine (a restart before its lease expired). It retries until
// it succeeds or ctx ends: without quorum there is nothing else to do.
func (m *Machine) joinAlliance(ctx context.Context) error {
	return retry(ctx, func(attempt int) error {
		err := m.tryJoin(ctx)
		if err != nil {
			m.log.Warn("joining the alliance (session and machine entry) failed; retrying", "attempt", attempt+1, "err", err)
		}
		return err
	})
}

// tryJoin is one attempt of joinAlliance. The session is closed again when the entry cannot be
// created, so that a failed attempt leaves nothing behind.
func (m *Machine) tryJoin(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*m.cfg.CallTimeout)
	defer cancel()
	sess, err := m.member.Load().NewSession(ctx, m.cfg.SessionTTL)
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := m.removeStaleEntries(ctx); err != nil {
		_ = sess.Close(ctx)
		return err
	}
	// The catalog first: once the machine entry exists a search may count on knowing every
	// seller this machine brings.
	if err := m.recordCatalog(ctx); err != nil {
		_ = sess.Close(ctx)
		return err
	}
	m.publishMu.Lock()
	m.published.entry = nil
	m.published.roles = map[string]placement.Role{}
	m.publishMu.Unlock()
	value, _ := json.Marshal(m.entry())
	if _, err := m.tree().Create(ctx, m.keys.machine(m.cfg.Name), value, coord.Ephemeral(sess)); err != nil {
		_ = sess.Close(ctx)
		return fmt.Errorf("machine entry: %w", err)
	}
	m.publishMu.Lock()
	m.published.entry = value
	m.publishMu.Unlock()
	m.sess.Store(sess)
	return nil
}

// removeStaleEntries deletes entries an earlier incarnation of this machine left behind.
func (m *Machine) removeStaleEntries(ctx context.Context) error {
	var ops []coord.Op
	if ok, _, err := m.tree().Exists(ctx, m.keys.machine(m.cfg.Name)); err != nil {
		return err
	} else if ok {
		ops = append(ops, coord.OpDelete(m.keys.machine(m.cfg.Name)))
	}
	holders, _, err := m.tree().Descendants(ctx, m.keys.sellers())
	if err != nil {
		return err
	}
	for _, h := range holders {
		if seller, machine, ok := strings.Cut(h.Name, "/"); ok && machine == m.cfg.Name {
			ops = append(ops, coord.OpDelete(m.keys.sellerHolder(seller, m.cfg.Name)))
		}
	}
	if len(ops) == 0 {
		return nil
	}
	m.log.Info("removing entries of an earlier incarnation of this machine", "entries", len(ops))
	_, err = m.tree().Multi(ctx, ops...)
	return err
}

// recordCatalog makes sure the alliance remembers the sellers this machine brought, so that a
// seller whose every copy is later lost is reported missing rather than forgotten.
func (m *Machine) recordCatalog(ctx context.Context) error {
	for _, s := range m.copies.broughtCodes() {
		if _, err := m.tree().Create(ctx, m.keys.catalogEntry(s), nil); err != nil && !errors.Is(err, coord.ErrNodeExists) {
			return fmt.Errorf("catalog entry of seller %s: %w", s, err)
		}
	}
	return nil
}

// keepMembership joins the alliance again when this machine's session is lost (a pause longer
// than its lease, a partition): the alliance has repaired around it meanwhile, so it comes back
// as a joiner bringing its own sellers, and keeps serving the copies it has until a round
// reassigns them.
func (m *Machine) keepMembership(ctx context.Context) {
	for {
		sess := m.session()
		select {
		case <-ctx.Done():
			return
		case <-sess.Done():
		}
		if ctx.Err() != nil || m.leaving.Load() {
			return // leave() closed the session on purpose
		}
		m.log.Warn("session lost: rejoining the alliance as a new member")
		m.copies.rejoin()
		if err := m.joinAlliance(ctx); err != nil {
			return
		}
	}
}

// inView reports whether this machine's own entry is in the view (so it is a participant).
func (m *Machine) inView() bool {
	_, ok := m.view.url(m.cfg.Name)
	return ok
}
