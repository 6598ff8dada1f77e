package gather

import (
	"context"

	"flightalliance/alliance/flight"
)

// A list some search is asking the holders for is asked once: a search that lacks the same
// list meanwhile waits for that answer instead of asking again (the first searches of a busy
// delegate share airports: 16 searches at once over 60 airports ask for some four of their 32
// sides twice). The search that claimed a list settles it as soon as a holder answers for the
// seller, or when its gather ends without one, also when it fails or panics; one whose wait
// ends unanswered (no holder the claimer asked answered for the seller) asks for the list
// itself. A gather goes on when its caller leaves (computeOnce), so a wait ends with it.
// Nothing is shared while the cache is off (--flights-cache 0): every search then asks the
// holders.

// pendingList is one list being asked for.
type pendingList struct {
	key     sideKey
	done    chan struct{} // closed once settled
	settled bool          // guarded by the cache's mu
	list    []flight.Flight
	ok      bool // a holder answered for the seller
}

// wait waits for the list, or for ctx; false when it came unanswered or ctx ended first.
func (p *pendingList) wait(ctx context.Context) ([]flight.Flight, bool) {
	select {
	case <-p.done:
		return p.list, p.ok
	case <-ctx.Done():
		return nil, false
	}
}

// sellerLists is what a search has of a seller's two lists, and how it gets the others.
type sellerLists struct {
	src, dst           []flight.Flight
	have               Sides        // the sides in src and dst
	claimSrc, claimDst *pendingList // the sides this search asks for and must settle (nil: none)
	waitSrc, waitDst   *pendingList // the sides another search is asking for (nil: none)
}

// claimed is the sides this search asks for.
func (l *sellerLists) claimed() Sides {
	var s Sides
	if l.claimSrc != nil {
		s |= FromSrc
	}
	if l.claimDst != nil {
		s |= ToDst
	}
	return s
}

// add takes the sides a holder answered for.
func (l *sellerLists) add(sides Sides, f holderFlights) {
	if sides&FromSrc != 0 {
		l.src = f.src
	}
	if sides&ToDst != 0 {
		l.dst = f.dst
	}
	l.have |= sides
}

// settle settles this search's claims with a holder's answer (answered or not).
func (l *sellerLists) settle(c *flightCache, f holderFlights, answered bool, gen uint64) {
	if l.claimSrc != nil {
		c.settle(l.claimSrc, f.src, answered, gen)
	}
	if l.claimDst != nil {
		c.settle(l.claimDst, f.dst, answered, gen)
	}
}

// claim returns what the cache has of a seller's lists for q's airports on date: kept lists,
// lists another search is asking for (to wait for), and claims on the others, which the caller
// must settle (settle) whatever comes of its asking.
func (c *flightCache) claim(seller string, date flight.Date, src, dst string) sellerLists {
	if !c.enabled {
		return sellerLists{claimSrc: &pendingList{done: make(chan struct{})}, claimDst: &pendingList{done: make(chan struct{})}}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out sellerLists
	for _, side := range []struct {
		sides Sides
		key   sideKey
		list  *[]flight.Flight
		claim **pendingList
		wait  **pendingList
	}{
		{FromSrc, sideKey{seller, date, true, src}, &out.src, &out.claimSrc, &out.waitSrc},
		{ToDst, sideKey{seller, date, false, dst}, &out.dst, &out.claimDst, &out.waitDst},
	} {
		if l, ok := c.lists.Get(side.key); ok {
			*side.list = l
			out.have |= side.sides
			continue
		}
		if p := c.pending[side.key]; p != nil {
			*side.wait = p
			continue
		}
		if c.pending == nil {
			c.pending = make(map[sideKey]*pendingList)
		}
		p := &pendingList{key: side.key, done: make(chan struct{})}
		c.pending[side.key] = p
		*side.claim = p
	}
	return out
}

// settle ends a claim, answered (ok: the list) or not, and keeps the list as add does when
// answered and no purge came since generation gen. Settling a claim again changes nothing.
func (c *flightCache) settle(p *pendingList, list []flight.Flight, ok bool, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p.settled {
		return
	}
	p.settled = true
	if c.pending[p.key] == p {
		delete(c.pending, p.key)
	}
	if ok {
		c.keepLocked(p.key, list, gen)
	}
	p.list, p.ok = list, ok
	close(p.done)
}
