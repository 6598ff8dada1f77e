package ledger

import (
	"context"
	"log/slog"
	"maps"
	"time"

	"flightalliance/coord"
)

// Holds is this machine's copy of the alliance's open holds (holds/<id> = expiry), followed from
// etcd, so that the machine knows when the next one falls due without polling.
type Holds struct {
	dir    string
	mirror *coord.Mirror[map[string]time.Time]
}

// NewHolds returns an empty copy of alliance's open holds; Follow fills it.
func NewHolds(alliance string) *Holds {
	return &Holds{dir: newKeys(alliance).holds(), mirror: coord.NewMirror(map[string]time.Time{}, foldHold)}
}

// Follow keeps the copy until ctx ends.
func (h *Holds) Follow(ctx context.Context, t *coord.Tree, log *slog.Logger) {
	h.mirror.Follow(ctx, t, h.dir, coord.WatchOptions{Children: true}, log)
}

// foldHold folds one event of the holds folder into the open holds.
func foldHold(due *map[string]time.Time, ev coord.Event) func() {
	parse := func(v []byte) time.Time {
		t, err := time.Parse(time.RFC3339Nano, string(v))
		if err != nil {
			return time.Time{} // unreadable: due now, and the ledger decides from the record
		}
		return t
	}
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		(*due)[ev.Name] = parse(ev.Value)
	case coord.EventDeleted:
		delete(*due, ev.Name)
	case coord.EventResync:
		*due = make(map[string]time.Time, len(ev.Children))
		for _, ch := range ev.Children {
			(*due)[ch.Name] = parse(ch.Value)
		}
	}
	return nil
}

// snapshot returns the open holds and a channel closed at their next change (taken first, so
// that a change made while the copy is read closes it).
func (h *Holds) snapshot() (due map[string]time.Time, changed <-chan struct{}) {
	changed = h.mirror.Changed()
	h.mirror.Read(func(d *map[string]time.Time) { due = maps.Clone(*d) })
	return due, changed
}
