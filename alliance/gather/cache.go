package gather

import (
	"math"
	"sync"

	"flightalliance/internal/budgetlru"
)

// answerCache holds the delegate's complete getTrips answers — the whole list of trips in the
// price order and its SOAP form, without seats left (they change with every booking and are read
// at answer time) —
// keyed by the canonical query (without the controls, which are applied to the list). It is
// emptied when the alliance's data may have changed (a machine joins, an assignment or a seller's
// version changes); an answer computed before such a purge is not added after it. It keeps at most
// size answers, and at most budget bytes of them (listCost): answers differ in size a
// thousandfold (3 trips, 42,000), and 4,096 of a busy alliance's would take gigabytes.
type answerCache struct {
	mu  sync.Mutex
	lru *budgetlru.Cache[string, *tripList] // nil: caching disabled
	gen uint64                              // bumped by every purge
}

// newAnswerCache keeps at most size answers (none when size ≤ 0) costing at most budget in all
// (no bound when budget ≤ 0).
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

// tripBytes is the most a cached list takes per trip once every form of it is made: the trips
// with their legs (about 290 bytes: two flights and the trip), the shared SOAP form (about 110:
// the search server's) and the inline one (about 360: a caller without ShareLegs) —
// TestListCostCoversAList measures them.
const tripBytes = 800

// listCost is what a list may take in memory: its trips' tripBytes, and a little for the list.
func listCost(l *tripList) int64 { return 256 + int64(len(l.trips))*tripBytes }

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

// add caches an answer computed since get returned gen, unless a purge came in between.
func (c *answerCache) add(key string, resp *tripList, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru != nil && gen == c.gen {
		c.lru.Add(key, resp)
	}
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

// size is what the kept answers cost (listCost), and how many there are.
func (c *answerCache) size() (bytes int64, answers int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil {
		return 0, 0
	}
	return c.lru.Size(), c.lru.Len()
}
