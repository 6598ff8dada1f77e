package alliance

import (
	"slices"
	"time"
)

// registrar decides when the delegate registers with the search servers: at once when this
// machine starts acting as the delegate or its alternates change, then every `every`, so that a
// restarted search server gets the alliance back within seconds; never while it leaves. It holds
// no I/O: the delegate loop tells it the role decided and does what it says.
type registrar struct {
	every      time.Duration
	acting     bool      // acting as the delegate, as last decided
	registered time.Time // when it last registered; zero: not since it started acting
	alternates []string  // the alternates it registered
}

// step takes the role decided at now (acting), whether this machine is leaving, and the
// alternates it would register. It reports whether the role changed, and whether to register
// now; a registration is counted as done (a failed one is tried again after `every`).
func (r *registrar) step(acting, leaving bool, alternates []string, now time.Time) (roleChanged, register bool) {
	if acting != r.acting {
		r.acting, r.registered, roleChanged = acting, time.Time{}, true
	}
	if !acting || leaving {
		return roleChanged, false
	}
	if r.due(alternates, now) {
		r.registered, r.alternates = now, alternates
		return roleChanged, true
	}
	return roleChanged, false
}

// due reports whether acting at now, with alternates, registers: when it starts acting, when
// the alternates change, and every `every`.
func (r *registrar) due(alternates []string, now time.Time) bool {
	return !r.acting || r.registered.IsZero() || now.Sub(r.registered) >= r.every || !slices.Equal(alternates, r.alternates)
}
