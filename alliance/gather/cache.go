package gather

import (
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// answerCache holds the delegate's complete getTrips answers — the whole list of trips in the
// price order and its SOAP form, without seats left (they change with every booking and are read
// at answer time) —
// keyed by the canonical query (without the controls, which are applied to the list). It is
// emptied when the alliance's data may have changed (a machine joins, an assignment or a seller's
// version changes); an answer computed before such a purge is not added after it.
type answerCache struct {
	mu  sync.Mutex
	lru *lru.Cache[string, *tripList] // nil: caching disabled
	gen uint64                        // bumped by every purge
}

func newAnswerCache(size int) (*answerCache, error) {
	c := &answerCache{}
	if size > 0 {
		l, err := lru.New[string, *tripList](size)
		if err != nil {
			return nil, err
		}
		c.lru = l
	}
	return c, nil
}

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
