package alliance

import (
	"log/slog"
	"maps"
	"slices"
	"sync"

	"flightalliance/coord"
)

// view is this machine's picture of its alliance, kept from a watch on the machines' entries: who
// is live, where they answer, what each holds. It is also the data plane's routing table, so it is
// kept — last known — when etcd stops answering.
type view struct {
	mu            sync.RWMutex
	machines      map[string]machineEntry
	created       map[string]int64    // create revision of each live entry: a new incarnation is a new member
	membershipRev int64               // revision of the latest join, failure or leave announcement
	lastHolders   map[string][]string // seller → the machines that held it the last time any did
	versions      map[string]string   // seller → data version, as the holders publish it
	changed       chan struct{}       // closed and replaced on every change
	listed        bool                // the machines have been listed at least once
	relisted      bool                // listed again after the watch lost its place: ask for a new round
	onDataChange  func()              // called when a machine joins or a seller's version changes
	log           *slog.Logger
}

func newView(log *slog.Logger, onDataChange func()) *view {
	return &view{
		machines:     map[string]machineEntry{},
		created:      map[string]int64{},
		lastHolders:  map[string][]string{},
		versions:     map[string]string{},
		changed:      make(chan struct{}),
		onDataChange: onDataChange,
		log:          log,
	}
}

// apply folds one event of the machines folder (see follow) into the view.
func (v *view) apply(ev coord.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		e, err := decodeMachineEntry(ev.Name, ev.Value)
		if err != nil {
			v.log.Warn("ignoring malformed machine entry", "machine", ev.Name, "err", err)
			return
		}
		old, existed := v.machines[ev.Name]
		newIncarnation := !existed || v.created[ev.Name] != ev.Stat.CreateRevision
		v.machines[ev.Name] = e
		v.created[ev.Name] = ev.Stat.CreateRevision
		if newIncarnation || old.Leaving != e.Leaving || old.Epoch != e.Epoch {
			v.membershipRev = ev.Revision
		}
		assignmentChanged := !slices.Equal(old.Primaries, e.Primaries) || !slices.Equal(old.Backups, e.Backups)
		if (newIncarnation || assignmentChanged) && v.onDataChange != nil {
			defer v.onDataChange()
		}
	case coord.EventDeleted:
		if _, ok := v.machines[ev.Name]; !ok {
			return
		}
		delete(v.machines, ev.Name)
		delete(v.created, ev.Name)
		v.membershipRev = ev.Revision
	case coord.EventResync:
		// A fresh listing (at start, or after the watch lost its place to a compaction): it
		// replaces the view and counts as a membership change.
		v.machines = map[string]machineEntry{}
		v.created = map[string]int64{}
		// After a compaction the watch re-lists: the changes it missed (a failure, a leave, an
		// epoch bump) cannot be dated, so this machine may name the next round differently from
		// the others. It asks for a new round, which every machine then names the same.
		v.relisted = v.listed
		v.listed = true
		for _, c := range ev.Children {
			e, err := decodeMachineEntry(c.Name, c.Value)
			if err != nil {
				v.log.Warn("ignoring malformed machine entry", "machine", c.Name, "err", err)
				continue
			}
			v.machines[c.Name] = e
			v.created[c.Name] = c.Stat.CreateRevision
			v.membershipRev = max(v.membershipRev, c.Stat.CreateRevision)
		}
		if v.onDataChange != nil {
			defer v.onDataChange()
		}
	}
	if v.refreshHoldersLocked() && v.onDataChange != nil {
		defer v.onDataChange()
	}
	close(v.changed)
	v.changed = make(chan struct{})
}

// refreshHoldersLocked recomputes the last known holders and versions; it reports whether some
// seller's data version changed.
func (v *view) refreshHoldersLocked() (versionChanged bool) {
	holders := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(v.machines)) {
		e := v.machines[name]
		for _, s := range e.Primaries {
			holders[s] = append([]string{name}, holders[s]...)
		}
		for _, s := range e.Backups {
			holders[s] = append(holders[s], name)
		}
		for s, ver := range e.Versions {
			if old, ok := v.versions[s]; ok && old != ver {
				versionChanged = true
			}
			v.versions[s] = ver
		}
	}
	for s, hs := range holders {
		// Current holders first, then earlier ones that may still have the copy (a machine keeps
		// a copy it gave away until the new holders have published theirs).
		for _, old := range v.lastHolders[s] {
			if !slices.Contains(hs, old) {
				hs = append(hs, old)
			}
		}
		v.lastHolders[s] = hs
	}
	return versionChanged
}

// wait returns a channel closed at the next change of the view.
func (v *view) wait() <-chan struct{} {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.changed
}

// takeRelisted reports (once) whether the view was listed again since the last call.
func (v *view) takeRelisted() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	r := v.relisted
	v.relisted = false
	return r
}

// isListed reports whether the machines have been listed at least once.
func (v *view) isListed() bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.listed
}

// membership returns the revision of the latest membership change seen.
func (v *view) membership() int64 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return v.membershipRev
}

// delegate is the live machine with the lexicographically smallest name ("" when none is live).
func (v *view) delegate() string {
	v.mu.RLock()
	defer v.mu.RUnlock()
	names := slices.Sorted(maps.Keys(v.machines))
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// entries returns the live machines' entries sorted by name.
func (v *view) entries() []machineEntry {
	v.mu.RLock()
	defer v.mu.RUnlock()
	out := make([]machineEntry, 0, len(v.machines))
	for _, name := range slices.Sorted(maps.Keys(v.machines)) {
		out = append(out, v.machines[name])
	}
	return out
}

// url returns where a machine answers, from the current view.
func (v *view) url(name string) (string, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	e, ok := v.machines[name]
	return e.URL, ok
}

// candidates lists, for one seller, the machines to ask in order: its holders in the current view
// (primary first), then machines that held it in an earlier view and are still live — during a
// rebalancing the old holder keeps its copy until the new one is published.
func (v *view) candidates(seller string) []string {
	v.mu.RLock()
	defer v.mu.RUnlock()
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if _, live := v.machines[name]; live && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(v.machines)) {
		for _, s := range v.machines[name].Primaries {
			if s == seller {
				add(name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(v.machines)) {
		for _, s := range v.machines[name].Backups {
			if s == seller {
				add(name)
			}
		}
	}
	for _, name := range v.lastHolders[seller] {
		add(name)
	}
	for _, name := range slices.Sorted(maps.Keys(v.machines)) {
		if slices.Contains(v.machines[name].Brings, seller) {
			add(name) // a joiner whose round has not committed yet
		}
	}
	return out
}

// heldByOthers reports whether a live machine other than self holds seller in the view.
func (v *view) heldByOthers(seller, self string) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	for name, e := range v.machines {
		if name != self && (slices.Contains(e.Primaries, seller) || slices.Contains(e.Backups, seller)) {
			return true
		}
	}
	return false
}

// everHeld returns every seller some machine has held since this view was made, sorted.
func (v *view) everHeld() []string {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return slices.Sorted(maps.Keys(v.lastHolders))
}
