package alliance

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"time"

	"flightalliance/coord"
)

// view is this machine's picture of its alliance, kept from a watch on the machines' entries: who
// is live, where they answer, what each holds. It is also the data plane's routing table, so it is
// kept — last known — when etcd stops answering. Its state sits in a coord.Mirror: one lock, one
// change channel, the fold below.
type view struct {
	mirror       *coord.Mirror[viewState]
	onDataChange func() // newView's; also called when a departure falls out of departedAskable
}

// viewState is what the view knows, folded from the machines folder.
type viewState struct {
	machines      map[string]machineEntry
	created       map[string]int64     // create revision of each live entry: a new incarnation is a new member
	modified      map[string]int64     // revision of each live entry's last publish
	membershipRev int64                // revision of the latest join, failure or leave announcement
	lastHolders   map[string][]string  // seller → the machines that held it the last time any did
	held          map[string]bool      // the sellers some live machine holds now (as primary or backup)
	versions      map[string]string    // seller → data version, as the holders publish it
	current       map[string]string    // seller → its current version (currentVersion) when last known
	everListed    bool                 // the folder has been listed before
	relisted      bool                 // listed again after the watch lost its place: ask for a new round
	departed      map[string]departure // machines whose entry vanished, with their last entry (view_departed.go)
	now           func() time.Time     // the clock departures are dated by
}

// newView returns an empty view. onDataChange is called — outside the view's lock, after the
// change is applied — whenever what a search answers may have changed: a machine joins (or comes
// back as a new incarnation), a machine's assignment or the version of a copy it holds changes,
// a seller loses its last live holder, or the folder is listed again. log hears of malformed
// entries.
func newView(log *slog.Logger, onDataChange func()) *view {
	initial := viewState{
		machines:    map[string]machineEntry{},
		created:     map[string]int64{},
		modified:    map[string]int64{},
		lastHolders: map[string][]string{},
		versions:    map[string]string{},
		current:     map[string]string{},
		departed:    map[string]departure{},
		now:         time.Now,
	}
	fold := func(s *viewState, ev coord.Event) (after func()) {
		if s.fold(ev, log) && onDataChange != nil {
			return onDataChange
		}
		return nil
	}
	return &view{mirror: coord.NewMirror(initial, fold), onDataChange: onDataChange}
}

// follow keeps the view from the machines folder until ctx ends.
func (v *view) follow(ctx context.Context, t *coord.Tree, dir string, log *slog.Logger) {
	v.mirror.Follow(ctx, t, dir, coord.WatchOptions{Children: true}, log)
}

// apply folds one event of the machines folder into the view.
func (v *view) apply(ev coord.Event) { v.mirror.Apply(ev) }

// fold applies one event of the machines folder; it reports whether search answers may have
// changed (see newView).
func (s *viewState) fold(ev coord.Event, log *slog.Logger) (dataChanged bool) {
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		e, err := decodeMachineEntry(ev.Name, ev.Value)
		if err != nil {
			log.Warn("ignoring malformed machine entry", "machine", ev.Name, "err", err)
			return false
		}
		old, existed := s.machines[ev.Name]
		newIncarnation := !existed || s.created[ev.Name] != ev.Stat.CreateRevision
		s.machines[ev.Name] = e
		delete(s.departed, ev.Name)
		s.created[ev.Name] = ev.Stat.CreateRevision
		s.modified[ev.Name] = ev.Stat.ModRevision
		if newIncarnation || old.Leaving != e.Leaving || old.Epoch != e.Epoch {
			s.membershipRev = ev.Revision
		}
		assignmentChanged := !slices.Equal(old.Primaries, e.Primaries) || !slices.Equal(old.Backups, e.Backups)
		// A machine's own versions are compared, not the alliance's: of two holders that
		// publish a seller's new version one after the other, the second would otherwise find
		// the version already changed (by the first) and answers computed from its old copy in
		// between would be kept.
		versionsChanged := !maps.Equal(old.Versions, e.Versions)
		dataChanged = newIncarnation || assignmentChanged || versionsChanged
	case coord.EventDeleted:
		old, ok := s.machines[ev.Name]
		if !ok {
			return false
		}
		s.depart(old)
		delete(s.machines, ev.Name)
		delete(s.created, ev.Name)
		delete(s.modified, ev.Name)
		s.membershipRev = ev.Revision
	case coord.EventResync:
		// A fresh listing (at start, or after the watch lost its place to a compaction): it
		// replaces the view and counts as a membership change. A machine it no longer lists
		// departed meanwhile.
		before := s.machines
		s.machines = map[string]machineEntry{}
		s.created = map[string]int64{}
		s.modified = map[string]int64{}
		// After a compaction the watch re-lists: the changes it missed (a failure, a leave, an
		// epoch bump) cannot be dated, so this machine may name the next round differently from
		// the others. It asks for a new round, which every machine then names the same.
		s.relisted = s.everListed
		s.everListed = true
		for _, c := range ev.Children {
			e, err := decodeMachineEntry(c.Name, c.Value)
			if err != nil {
				log.Warn("ignoring malformed machine entry", "machine", c.Name, "err", err)
				continue
			}
			s.machines[c.Name] = e
			s.created[c.Name] = c.Stat.CreateRevision
			s.modified[c.Name] = c.Stat.ModRevision
			s.membershipRev = max(s.membershipRev, c.Stat.CreateRevision)
			delete(s.departed, c.Name)
		}
		for name, e := range before {
			if _, listed := s.machines[name]; !listed {
				s.depart(e)
			}
		}
		dataChanged = true
	}
	if s.refreshHolders() {
		dataChanged = true
	}
	return dataChanged
}

// refreshHolders recomputes the last known holders and versions; it reports whether some
// seller's data version changed, or some seller lost its last live holder (an answer kept from
// before would show its flights as if a copy were still reachable; while one is, the cache is
// kept: the backups hold the same data).
func (s *viewState) refreshHolders() (changed bool) {
	holders := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(s.machines)) {
		e := s.machines[name]
		for _, sel := range e.Primaries {
			holders[sel] = append([]string{name}, holders[sel]...)
		}
		for _, sel := range e.Backups {
			holders[sel] = append(holders[sel], name)
		}
		for sel, ver := range e.Versions {
			if old, ok := s.versions[sel]; ok && old != ver {
				changed = true
			}
			s.versions[sel] = ver
		}
	}
	for sel := range s.held {
		if _, ok := holders[sel]; !ok {
			changed = true
		}
	}
	s.held = make(map[string]bool, len(holders))
	for sel := range holders {
		s.held[sel] = true
		if ver, known := s.currentVersion(sel); known {
			s.current[sel] = ver
		}
	}
	for sel, hs := range holders {
		// Current holders first, then earlier ones that may still have the copy (a machine keeps
		// a copy it gave away until the new holders have published theirs).
		for _, old := range s.lastHolders[sel] {
			if !slices.Contains(hs, old) {
				hs = append(hs, old)
			}
		}
		s.lastHolders[sel] = hs
	}
	return changed
}
