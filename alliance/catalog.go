package alliance

import (
	"maps"
	"slices"
	"sync"

	"flightalliance/coord"
)

// catalog is the set of sellers the alliance has ever been given (persistent entries, one per
// seller), followed from the tree. A seller in the catalog that no live machine holds is missing,
// and a search says so instead of answering as if it never existed.
type catalog struct {
	mu      sync.RWMutex
	sellers map[string]bool
	listed  bool
}

func newCatalog() *catalog { return &catalog{sellers: map[string]bool{}} }

// apply folds one event of the catalog folder (see follow) into the set.
func (c *catalog) apply(ev coord.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		c.sellers[ev.Name] = true
	case coord.EventDeleted:
		delete(c.sellers, ev.Name)
	case coord.EventResync:
		c.sellers = map[string]bool{}
		for _, ch := range ev.Children {
			c.sellers[ch.Name] = true
		}
		c.listed = true
	}
}

// list returns the sellers of the catalog, sorted.
func (c *catalog) list() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Sorted(maps.Keys(c.sellers))
}

// isListed reports whether the catalog has been listed at least once.
func (c *catalog) isListed() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.listed
}
