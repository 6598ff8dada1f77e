package alliance

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

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

func (c *catalog) follow(ctx context.Context, tree *coord.Tree, dir string) {
	for attempt := 0; ctx.Err() == nil; attempt++ {
		children, rev, err := tree.ChildrenData(ctx, dir, 0)
		if err == nil {
			c.mu.Lock()
			for _, ch := range children {
				c.sellers[ch.Name] = true
			}
			c.listed = true
			c.mu.Unlock()
			for ev := range tree.Watch(ctx, dir, coord.WatchOptions{Children: true, FromRevision: rev + 1}) {
				c.mu.Lock()
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
				}
				c.mu.Unlock()
			}
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(backoff(attempt)):
		}
	}
}

func (c *catalog) list() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Sorted(maps.Keys(c.sellers))
}

func (c *catalog) isListed() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.listed
}
