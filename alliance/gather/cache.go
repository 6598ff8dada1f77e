package gather

import (
	"math"
	"sync"

	"flightalliance/alliance/trip"
	"flightalliance/internal/budgetlru"
)

// answerCache holds the delegate's complete getTrips answers — the whole list of trips in the
// price order and its SOAP form, without seats left (they change with every booking and are read
// at answer time) —
// keyed by the canonical query (without the controls, which are applied to the list). It is
// emptied when the alliance's data may have changed (a machine joins, an assignment or a seller's
// version changes); an answer computed before such a purge is not added after it. It keeps at most
// size answers, and at most budget bytes of them (listCost): answers differ in size a
// thousandfold (3 trips, 42,000), and 4,096 of a busy alliance's would take gigabytes. An
// answer costing more than the whole budget is not kept.
type answerCache struct {
	mu  sync.Mutex
	lru *budgetlru.Cache[string, *tripList] // nil: caching disabled
	gen uint64                              // bumped by every purge
}

// newAnswerCache keeps at most size answers (none when size ≤ 0) costing at most budget in all
// (no bound by cost when budget ≤ 0).
func newAnswerCache(size int, budget int64) *answerCache {
	c := &answerCache{}
	if budget <= 0 {
		budget = math.MaxInt64
	}
	if size > 0 {
		c.lru = budgetlru.NewLimited[string](size, budget, listCost)
	}
	return c
}

// tripBytes, legBytes and listBytes are what a kept list takes at most once every form of it is
// made (TestListCostCoversAList measures lists of every shape, 470 to 1,130 bytes a trip): per
// trip, its row in the list (16 bytes: trip.List), its inline SOAP form (about 360: a caller
// without ShareLegs) and its place in the shared form (about 110: the search server's); per
// distinct flight, the flight (128) and its leg in both forms (about 170); per list, the list and
// its slices' spare room. A list only the search server asks for takes less: its inline form is
// never made.
const tripBytes, legBytes, listBytes = 560, 360, 16 << 10

// costOf is what a list of trips may take in memory, fixed when the list is made (as the cache
// needs it): about 560 bytes a trip for lists of thousands of trips over a few hundred flights,
// up to 1,300 for lists whose trips share no flight.
func costOf(l trip.List) int64 {
	return listBytes + int64(l.Len())*tripBytes + int64(l.Flights())*legBytes
}

// listCost is what a list may take in memory (costOf its trips).
func listCost(l *tripList) int64 { return l.cost }

// get returns a cached answer, and the generation to hand back to add.
func (c *answerCache) get(key string) (*tripList, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil {
		return nil, c.gen, false
	}
	resp, ok := c.lru.Get(key)
	return resp, c.gen, ok
}

// add caches an answer computed since get returned gen, unless a purge came in between or it
// costs more than the whole budget; it reports whether the answer is kept.
func (c *answerCache) add(key string, resp *tripList, gen uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil || gen != c.gen {
		return false
	}
	c.lru.Add(key, resp)
	return c.lru.Contains(key)
}

// remove forgets an answer, if kept.
func (c *answerCache) remove(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru != nil {
		c.lru.Remove(key)
	}
}

func (c *answerCache) purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if c.lru != nil {
		c.lru.Purge()
	}
}

func (c *answerCache) enabled() bool { return c.lru != nil }

// usage is what the kept answers cost (listCost), and how many there are.
func (c *answerCache) usage() (bytes int64, answers int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil {
		return 0, 0
	}
	return c.lru.Size(), c.lru.Len()
}
