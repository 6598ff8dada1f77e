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
// made (TestListCostCoversAList measures lists of every shape, 750 to 1,100 bytes a trip): per
// trip, the trip with its legs (about 290 bytes), its inline SOAP form (about 360: a caller
// without ShareLegs) and its place in the shared form (about 110: the search server's); per
// distinct flight, its leg in both forms (about 170); per list, the list and its slices' spare
// room. A list only the search server asks for takes half to nine tenths of that.
const tripBytes, legBytes, listBytes = 800, 200, 16 << 10

// costOf is what a list of trips may take in memory, fixed when the list is made (as the cache
// needs it): 800 bytes a trip for lists of thousands of trips over a few hundred flights, up to
// 1,200 for lists whose trips share no flight.
func costOf(trips []trip.Trip) int64 {
	return listBytes + int64(len(trips))*tripBytes + int64(distinctLegs(trips))*legBytes
}

// distinctLegs counts the distinct flights of trips by their refs (trip.Trip.Refs), a leg without
// a ref counted as a flight of its own.
func distinctLegs(trips []trip.Trip) int {
	var top int32
	for i := range trips {
		top = max(top, trips[i].Refs[0], trips[i].Refs[1])
	}
	seen := make([]bool, top+1)
	n := 0
	for i := range trips {
		for j := range trips[i].Legs {
			ref := int32(0)
			if j < len(trips[i].Refs) {
				ref = trips[i].Refs[j]
			}
			if ref == 0 || !seen[ref] {
				n++
			}
			if ref > 0 {
				seen[ref] = true
			}
		}
	}
	return n
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
