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
	_ = retry(ctx, func(int) error {
		children, rev, err := tree.ChildrenData(ctx, dir, 0)
		if err != nil {
			log.Warn("listing a folder of the alliance's tree failed; retrying", "dir", dir, "err", err)
			return err
		}
		apply(coord.Event{Type: coord.EventResync, Path: dir, Revision: rev, Children: children})
		for ev := range tree.Watch(ctx, dir, coord.WatchOptions{Children: true, FromRevision: rev + 1}) {
			apply(ev)
		}
		return nil
	})
}

// followDescendants is follow for a folder whose nodes sit below sub-folders (seats/LY/LY001):
// events are named by the path below dir ("LY/LY001").
func followDescendants(ctx context.Context, tree *coord.Tree, dir string, log *slog.Logger, apply func(coord.Event)) {
	_ = retry(ctx, func(int) error {
		all, rev, err := tree.Descendants(ctx, dir)
		if err != nil {
			log.Warn("listing a folder of the alliance's tree failed; retrying", "dir", dir, "err", err)
			return err
		}
		apply(coord.Event{Type: coord.EventResync, Path: dir, Revision: rev, Children: all})
		for ev := range tree.Watch(ctx, dir, coord.WatchOptions{Recursive: true, FromRevision: rev + 1}) {
			apply(ev)
		}
		return nil
	})
}
