package alliance

import (
	"context"
	"log/slog"
	"maps"
	"slices"

	"flightalliance/coord"
)

// catalog is the set of sellers the alliance has ever been given (persistent entries, one per
// seller), followed from the tree. A seller in the catalog that no live machine holds is missing,
// and a search says so instead of answering as if it never existed.
type catalog struct {
	mirror *coord.Mirror[map[string]bool]
}

// newCatalog returns an empty catalog; onNew is called (outside its lock, after the change) when it
// gains a seller: an answer kept from before lacks that seller's flights without saying so.
func newCatalog(onNew func()) *catalog {
	fold := func(sellers *map[string]bool, ev coord.Event) func() {
		if foldCatalog(sellers, ev) {
			return onNew
		}
		return nil
	}
	return &catalog{mirror: coord.NewMirror(map[string]bool{}, fold)}
}

// follow keeps the catalog from its folder until ctx ends.
func (c *catalog) follow(ctx context.Context, t *coord.Tree, dir string, log *slog.Logger) {
	c.mirror.Follow(ctx, t, dir, coord.WatchOptions{Children: true}, log)
}

// foldCatalog folds one event of the catalog folder into the set; it reports whether the set
// gained a seller.
func foldCatalog(sellers *map[string]bool, ev coord.Event) (gained bool) {
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		gained = !(*sellers)[ev.Name]
		(*sellers)[ev.Name] = true
	case coord.EventDeleted:
		delete(*sellers, ev.Name)
	case coord.EventResync:
		old := *sellers
		*sellers = make(map[string]bool, len(ev.Children))
		for _, ch := range ev.Children {
			(*sellers)[ch.Name] = true
			gained = gained || !old[ch.Name]
		}
	}
	return gained
}

// list returns the sellers of the catalog, sorted.
func (c *catalog) list() (sellers []string) {
	c.mirror.Read(func(s *map[string]bool) { sellers = slices.Sorted(maps.Keys(*s)) })
	return sellers
}

// isListed reports whether the catalog has been listed at least once.
func (c *catalog) isListed() bool { return c.mirror.Listed() }
