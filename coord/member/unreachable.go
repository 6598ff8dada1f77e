package member

import "time"

// unreachables is the leader reconciler's memory of the other members' reachability: since
// when each has not answered a probe, the last probe error, and when that error was last
// logged. It is a pure value (the caller passes the clock), owned by the reconciler goroutine.
type unreachables struct {
	m       map[uint64]*reach
	lastRan time.Time // when the reconciler's last pass ended
}

type reach struct {
	lastSeen time.Time // last successful probe, or when this leader first saw the member
	err      error     // last probe error; nil while the member answers
	logged   time.Time // when a probe error of this member was last logged; kept across outages
}

func newUnreachables() *unreachables { return &unreachables{m: map[uint64]*reach{}} }

// observe records one probe of member id at now: err nil means it answered. It reports whether
// the caller should log err now: when the member fails within its grace — past it, the
// reconciler's removal (or kept-voter) line carries the error — and at most once per grace,
// so neither a member down for a while nor one that flaps logs on every pass.
func (u *unreachables) observe(id uint64, now time.Time, err error, grace time.Duration) (logNow bool) {
	r := u.m[id]
	if r == nil {
		r = &reach{lastSeen: now}
		u.m[id] = r
	}
	if err == nil {
		r.lastSeen, r.err = now, nil
		return false
	}
	r.err = err
	if now.Sub(r.lastSeen) > grace || (!r.logged.IsZero() && now.Sub(r.logged) < grace) {
		return false
	}
	r.logged = now
	return true
}

// downFor is how long member id has not answered, as of now (0 for a member never observed).
func (u *unreachables) downFor(id uint64, now time.Time) time.Duration {
	if r := u.m[id]; r != nil {
		return now.Sub(r.lastSeen)
	}
	return 0
}

// lastErr is the last probe error of member id, nil while it answers.
func (u *unreachables) lastErr(id uint64) error {
	if r := u.m[id]; r != nil {
		return r.err
	}
	return nil
}

// keep forgets the members not in present (removed from the cluster meanwhile).
func (u *unreachables) keep(present map[uint64]bool) {
	for id := range u.m {
		if !present[id] {
			delete(u.m, id)
		}
	}
}

// reset forgets everything: a member that becomes leader starts its clocks afresh.
func (u *unreachables) reset() { clear(u.m); u.lastRan = time.Time{} }

// resume is called as a pass begins at now: when the last pass ended more than maxGap before
// (this process was paused, or starved of CPU), every clock starts afresh and resume reports
// how long the reconciler did not run. The members were not watched meanwhile: time this
// process did not run is no evidence that they were down — a leader resumed after a pause
// longer than the grace would otherwise remove, at its first failed probe, a member that had
// been unreachable for a moment.
func (u *unreachables) resume(now time.Time, maxGap time.Duration) (idle time.Duration, fresh bool) {
	if u.lastRan.IsZero() || now.Sub(u.lastRan) <= maxGap {
		return 0, false
	}
	idle = now.Sub(u.lastRan)
	clear(u.m)
	return idle, true
}

// ran records that a pass ended at now.
func (u *unreachables) ran(now time.Time) { u.lastRan = now }
