// Package budgetlru is a least-recently-used cache bounded by what its entries cost in all (bytes,
// flights), and by their number when asked (NewLimited): caches whose entries differ in size by a
// thousandfold (an answer of 3 trips and one of 24,000) need a budget of memory, not a count. It
// is golang-lru's simplelru with the cost kept beside it. Not safe for concurrent use: its callers
// hold their own locks (they keep more than the cache under them).
package budgetlru

import "github.com/hashicorp/golang-lru/v2/simplelru"

// Cache holds values of K up to a budget of cost.
type Cache[K comparable, V any] struct {
	budget int64
	cost   func(V) int64
	size   int64
	lru    *simplelru.LRU[K, V]
}

// New returns a cache that keeps values costing at most budget in all, each costing cost(v).
func New[K comparable, V any](budget int64, cost func(V) int64) *Cache[K, V] {
	return NewLimited[K](1<<30, budget, cost) // a count bound the budget reaches first
}

// NewLimited is New keeping at most limit values as well (1 when limit < 1): the least recently
// used goes when either bound is passed. cost(v) must not change while v is kept.
func NewLimited[K comparable, V any](limit int, budget int64, cost func(V) int64) *Cache[K, V] {
	c := &Cache[K, V]{budget: budget, cost: cost}
	// simplelru calls back on every removal (Remove, RemoveOldest, an eviction past limit in
	// Add, Purge), which keeps size exact.
	c.lru, _ = simplelru.NewLRU(max(limit, 1), func(_ K, v V) { c.size -= cost(v) }) // fails only on a size ≤ 0
	return c
}

// Get returns the value of k, if kept, and makes it the most recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) { return c.lru.Get(k) }

// Add keeps v as the value of k, replacing any, and evicts the least recently used beyond the
// budget; a value costing more than the whole budget is not kept (nor is the one it replaces).
func (c *Cache[K, V]) Add(k K, v V) {
	c.lru.Remove(k) // a value replaced is taken off the size (Add would not call back)
	if c.cost(v) > c.budget {
		return
	}
	c.lru.Add(k, v)
	c.size += c.cost(v)
	for c.size > c.budget {
		c.lru.RemoveOldest()
	}
}

// Contains reports whether k is kept, without making it the most recently used.
func (c *Cache[K, V]) Contains(k K) bool { return c.lru.Contains(k) }

// Remove forgets k.
func (c *Cache[K, V]) Remove(k K) { c.lru.Remove(k) }

// Purge forgets everything.
func (c *Cache[K, V]) Purge() { c.lru.Purge() }

// Len is the number of values kept; Size what they cost.
func (c *Cache[K, V]) Len() int    { return c.lru.Len() }
func (c *Cache[K, V]) Size() int64 { return c.size }
