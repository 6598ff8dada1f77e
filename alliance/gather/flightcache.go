package gather

import (
	"sync"

	"flightalliance/alliance/flight"
	"flightalliance/internal/budgetlru"
)

// flightCache keeps the flights holders sent the delegate, per seller, side and airport on a
// date: a seller's flights out of an airport (the first legs of every search from there) and
// into one (the last legs of every search to there). A search for a pair never asked before
// usually shares both airports with earlier searches — 200 random pairs of 60 airports touch
// each airport about three times on each side — so it asks no holder for a seller whose two
// lists are kept, and decodes nothing, and asks a seller with one list kept for the other alone:
// the cold work of a search that is not the join and the sort is done once per airport and side,
// not once per pair. (A search under way while the cache is emptied may join a list kept before
// with one asked after, as it may join two sellers' lists from either side of the change.)
//
// A seller's flights change only with its data version, and every change of a version, an
// assignment or a machine empties the cache (Search.Purge, with the answer cache); lists asked for
// before a purge are not added after it. Seats left are not in the lists (they are read at
// answer time). Lists are bounded by the flights they hold room for in all, each list counting
// one more (an empty list — any airport code, any date can be asked — is not free), the least
// recently used evicted first.
type flightCache struct {
	enabled bool

	mu      sync.Mutex // guards the fields below
	gen     uint64     // bumped by every purge
	lists   *budgetlru.Cache[sideKey, []flight.Flight]
	pending map[sideKey]*pendingList // lists a search is asking for now (inflight.go)
}

// sideKey names one list: the flights of seller on date out of airport (bySrc) or into it.
type sideKey struct {
	seller  string
	date    flight.Date
	bySrc   bool
	airport string
}

// newFlightCache keeps up to budget flights; a budget ≤ 0 keeps none.
func newFlightCache(budget int) *flightCache {
	return &flightCache{enabled: budget > 0, lists: budgetlru.New[sideKey](int64(budget), cost)}
}

// add keeps a seller's list of one side (bySrc: out of airport, else into it), asked for since
// generation returned gen, unless a purge came in between. The list is the cache's from then on:
// nobody may change it.
func (c *flightCache) add(seller string, date flight.Date, bySrc bool, airport string, list []flight.Flight, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keepLocked(sideKey{seller, date, bySrc, airport}, list, gen)
}

// keepLocked keeps list under key unless the cache is off or a purge came since generation gen.
// Called with c.mu held.
func (c *flightCache) keepLocked(key sideKey, list []flight.Flight, gen uint64) {
	if c.enabled && gen == c.gen {
		c.lists.Add(key, exact(list))
	}
}

// exact is l holding no room beyond its flights: l itself when it holds none, otherwise a copy.
func exact(l []flight.Flight) []flight.Flight {
	if len(l) == cap(l) {
		return l
	}
	out := make([]flight.Flight, len(l))
	copy(out, l)
	return out
}

// cost is what a list counts against the budget: the flights it holds room for, and one.
func cost(l []flight.Flight) int64 { return int64(cap(l)) + 1 }

// generation is the purge generation now.
func (c *flightCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

func (c *flightCache) purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.lists.Purge()
	clear(c.pending) // a search after the purge asks again; waiters before it still get their lists
}
