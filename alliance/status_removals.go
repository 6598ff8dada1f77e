package alliance

import (
	"context"
	"time"

	"flightalliance/coord/member"
)

// removalsReadTimeout bounds the read of the removal records for /status: a local read that
// normally takes a millisecond, but a member that stopped, or a learner cut off from the voters
// its client uses, must not hold up /status (the search server's console allows it a second).
const removalsReadTimeout = 300 * time.Millisecond

// removals is the last recorded removal of each etcd member name (see member.Removal), or nil
// when member could not read them in time.
func (m *Machine) removals(ctx context.Context, mb *member.Member) []member.Removal {
	ctx, cancel := context.WithTimeout(ctx, removalsReadTimeout)
	defer cancel()
	rs, err := mb.Removals(ctx)
	if err != nil {
		m.log.Debug("reading the member removals for /status failed", "err", err)
		return nil
	}
	return rs
}

// chainRemoval is the etcd member's OnRemoval: count calls this machine's metric, then the
// callback the caller's member.Config already had, if any.
func chainRemoval(count, next func(member.Removal)) func(member.Removal) {
	if next == nil {
		return count
	}
	return func(r member.Removal) {
		count(r)
		next(r)
	}
}
