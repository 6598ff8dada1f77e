package alliance

import (
	"context"
	"fmt"
	"strings"
)

// Readiness is whether this machine should be sent traffic now — an orchestrator's readiness
// probe (GET /readyz on the airline server's --probe-listen): ready while it is registered in its
// alliance, the same "registered" as GET /healthz says (its session is live and its view shows
// its entry), its etcd member sees a quorum, and it is not leaving. Otherwise reason says, in one
// line, every condition that fails: starting, no quorum, no or a lost session, not yet in the
// view, leaving.
func (m *Machine) Readiness(ctx context.Context) (ready bool, reason string) {
	if m.leaving.Load() {
		return false, "leaving the alliance"
	}
	member := m.member.Load()
	if member == nil {
		return false, "starting: the etcd member is not running yet (it waits for its cluster's quorum, or to join)"
	}
	var not []string
	if !member.Status(ctx).HasQuorum {
		not = append(not, "no etcd quorum")
	}
	switch sess := m.session(); {
	case sess == nil:
		not = append(not, "not joined yet (no session)")
	case !m.sessionLive():
		not = append(not, "session lost (joining again)")
	case !m.inView():
		not = append(not, "not in the alliance's view yet")
	}
	if len(not) > 0 {
		return false, strings.Join(not, "; ")
	}
	return true, fmt.Sprintf("registered in alliance %s with a live session", m.cfg.Alliance)
}
