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

func newCatalog() *catalog { return &catalog{mirror: coord.NewMirror(map[string]bool{}, foldCatalog)} }

// follow keeps the catalog from its folder until ctx ends.
func (c *catalog) follow(ctx context.Context, t *coord.Tree, dir string, log *slog.Logger) {
	c.mirror.Follow(ctx, t, dir, coord.WatchOptions{Children: true}, log)
}

// foldCatalog folds one event of the catalog folder into the set.
func foldCatalog(sellers *map[string]bool, ev coord.Event) func() {
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		(*sellers)[ev.Name] = true
	case coord.EventDeleted:
		delete(*sellers, ev.Name)
	case coord.EventResync:
		*sellers = make(map[string]bool, len(ev.Children))
		for _, ch := range ev.Children {
			(*sellers)[ch.Name] = true
		}
	}
	return nil
}

// list returns the sellers of the catalog, sorted.
func (c *catalog) list() (sellers []string) {
	c.mirror.Read(func(s *map[string]bool) { sellers = slices.Sorted(maps.Keys(*s)) })
	return sellers
}

// isListed reports whether the catalog has been listed at least once.
func (c *catalog) isListed() bool { return c.mirror.Listed() }
