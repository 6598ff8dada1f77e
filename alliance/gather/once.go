package gather

import (
	"context"
	"slices"
	"strconv"

	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// computed is one query's trips, as one computation found them, and the sellers it lacked.
type computed struct {
	list    *tripList
	missing []string
	kept    bool // the cache kept the list (complete, and within its budget)
}

// computeOnce gives the trips of q, computing them once for every concurrent caller with the same
// query and cache generation: under load many clients ask the same cold query at once, and each
// computation is a gather from every holder, a join and a sort. The computation is the first
// caller's, detached from its cancellation (a client that leaves does not fail the others
// waiting; every holder call has its own timeout, so it ends), and a complete result is cached.
// A caller whose ctx ends first gets a Server fault; the computation goes on for the others. A
// purge starts a new generation, so a computation begun before it is neither joined nor cached
// after it.
//
// A first page (firstPage) is computed as the list's first smallPage trips and its count alone
// (trip.Cheapest), and cached apart from whole lists (firstKey) — or as the whole list, when it
// has no more trips than that.
func (s *Search) computeOnce(ctx context.Context, q trip.Query, key string, gen uint64, first bool) (computed, error) {
	started := false // set by the computation when it is this call's (read after it ended)
	onceKey := key
	if first {
		onceKey = firstKey(key)
	}
	ch := s.once.DoChan(strconv.FormatUint(gen, 10)+"/"+onceKey, func() (_ any, err error) {
		started = true
		defer recoverAsFault(&err) // a panic here would take the whole machine down: DoChan re-panics unrecoverably
		want := s.alliance.Sellers()
		if len(q.Sellers) > 0 {
			want = slices.DeleteFunc(want, func(sel string) bool { return !slices.Contains(q.Sellers, sel) })
		}
		fromSrc, toDst, missing := s.gather(context.WithoutCancel(ctx), q, want)
		c := computed{missing: missing}
		if first {
			trips, total := trip.Cheapest(q, fromSrc, toDst, smallPage)
			c.list = newFirstTrips(trips, total)
		} else {
			c.list = newTripList(trip.Build(q, fromSrc, toDst))
		}
		if len(missing) == 0 {
			if c.list.whole() {
				if c.kept = s.cache.add(key, c.list, gen); c.kept {
					s.cache.remove(firstKey(key)) // the whole list answers first pages now
				}
			} else {
				c.kept = s.cache.add(firstKey(key), c.list, gen)
			}
		}
		return c, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return computed{}, r.Err
		}
		if !started { // r.Shared is true for the call that computed it too
			s.metrics.shared()
		}
		return r.Val.(computed), nil
	case <-ctx.Done():
		return computed{}, soap.ServerFault("gave up waiting for the trips: %v", ctx.Err())
	}
}

// recoverAsFault turns a panic of a shared computation into a Server fault for every caller
// waiting on it, as the SOAP handler does for a panic in its own goroutine.
func recoverAsFault(err *error) {
	if p := recover(); p != nil {
		*err = soap.ServerFault("internal error computing the trips: %v", p)
	}
}
