package alliance

import (
	"context"
	"log/slog"

	"flightalliance/coord"
)

// follow feeds apply with the children of dir until ctx ends: one listing, delivered as an
// EventResync, then a watch from the revision after it (the watch re-lists by itself if it ever
// loses its place). A listing that fails is retried with backoff; without quorum it waits.
func follow(ctx context.Context, tree *coord.Tree, dir string, log *slog.Logger, apply func(coord.Event)) {
	list := func(ctx context.Context) ([]coord.Child, int64, error) { return tree.ChildrenData(ctx, dir, 0) }
	followWith(ctx, tree, dir, coord.WatchOptions{Children: true}, list, log, apply)
}

// followDescendants is follow for a folder whose nodes sit below sub-folders (seats/LY/LY001):
// events are named by the path below dir ("LY/LY001").
func followDescendants(ctx context.Context, tree *coord.Tree, dir string, log *slog.Logger, apply func(coord.Event)) {
	list := func(ctx context.Context) ([]coord.Child, int64, error) { return tree.Descendants(ctx, dir) }
	followWith(ctx, tree, dir, coord.WatchOptions{Recursive: true}, list, log, apply)
}

func followWith(ctx context.Context, tree *coord.Tree, dir string, watch coord.WatchOptions,
	list func(context.Context) ([]coord.Child, int64, error), log *slog.Logger, apply func(coord.Event)) {
	_ = retry(ctx, func(int) error {
		children, rev, err := list(ctx)
		if err != nil {
			log.Warn("listing a folder of the alliance's tree failed; retrying", "dir", dir, "err", err)
			return err
		}
		apply(coord.Event{Type: coord.EventResync, Path: dir, Revision: rev, Children: children})
		watch.FromRevision = rev + 1
		for ev := range tree.Watch(ctx, dir, watch) {
			apply(ev)
		}
		return nil
	})
}
