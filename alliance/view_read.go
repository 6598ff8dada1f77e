package alliance

import (
	"maps"
	"slices"

	"flightalliance/alliance/gather"
)

// What the view answers: each read takes the view's read lock once.

// read runs f on the view's state under its read lock.
func (v *view) read(f func(s *viewState)) { v.mirror.Read(f) }

// wait returns a channel closed at the next change of the view.
func (v *view) wait() <-chan struct{} { return v.mirror.Changed() }

// isListed reports whether the machines have been listed at least once.
func (v *view) isListed() bool { return v.mirror.Listed() }

// takeRelisted reports (once) whether the view was listed again since the last call.
func (v *view) takeRelisted() (relisted bool) {
	v.mirror.Update(func(s *viewState) { relisted, s.relisted = s.relisted, false })
	return relisted
}

// membership returns the revision of the latest membership change seen.
func (v *view) membership() (rev int64) {
	v.read(func(s *viewState) { rev = s.membershipRev })
	return rev
}

// delegate is the live machine with the lexicographically smallest name ("" when none is live).
func (v *view) delegate() (name string) {
	v.read(func(s *viewState) {
		if len(s.machines) > 0 {
			name = slices.Min(slices.Collect(maps.Keys(s.machines)))
		}
	})
	return name
}

// entries returns the live machines' entries sorted by name.
func (v *view) entries() (out []machineEntry) {
	v.read(func(s *viewState) {
		out = make([]machineEntry, 0, len(s.machines))
		for _, name := range slices.Sorted(maps.Keys(s.machines)) {
			out = append(out, s.machines[name])
		}
	})
	return out
}

// zoneOf is the zone a live machine's entry names (its name when it names none, or when the
// machine is not in the view).
func (v *view) zoneOf(name string) (zone string) {
	zone = name
	v.read(func(s *viewState) {
		if e, live := s.machines[name]; live {
			zone = e.zone()
		}
	})
	return zone
}

// url returns where a machine answers, from the current view.
func (v *view) url(name string) (url string, ok bool) {
	v.read(func(s *viewState) {
		var e machineEntry
		e, ok = s.machines[name]
		url = e.URL
	})
	return url, ok
}

// candidates lists, for one seller, the machines to ask in order: its holders in the current view
// at the seller's current version (primary first, then its backups, each next one from a zone
// the list has not reached yet where there is one, by name otherwise — so a hedge goes to another
// zone first), then its holders at another version, then machines that held it in an earlier
// view and are still live — during a rebalancing the old holder keeps its copy until the new one
// is published — then a joiner that brings it and whose round has not committed yet. The current
// version is the one the last primary to publish names (currentVersion), or, with no live primary
// naming one, the one the view last knew a primary to name: while a seller's data is replaced,
// the old primary's entry may still name it primary, at the old version, until its own publish
// lands, and it is asked only when no holder of the new version answers. Last come
// the machines whose entry vanished lately and named a copy at the current version
// (departedHolders): their session ended, but they may still be running. alike is how many of
// out, from the first, hold the seller at its current version, as primary or backup: the same
// data, any of which a search may ask first.
func (v *view) candidates(seller string) (out []string, alike int) {
	v.read(func(s *viewState) {
		seen := map[string]bool{}
		add := func(name string) {
			if _, live := s.machines[name]; live && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
		current, known := s.currentVersion(seller)
		if !known { // no live primary names one: the version the last one named, as departedHolders
			current, known = s.current[seller]
		}
		atCurrent := func(name string) bool {
			ver, has := s.machines[name].Versions[seller]
			return !known || !has || ver == current
		}
		names := slices.Sorted(maps.Keys(s.machines))
		var primaries, backups, others []string
		for _, name := range names {
			e := s.machines[name]
			switch {
			case slices.Contains(e.Primaries, seller) && atCurrent(name):
				primaries = append(primaries, name)
			case slices.Contains(e.Backups, seller) && atCurrent(name):
				backups = append(backups, name)
			case slices.Contains(e.Primaries, seller) || slices.Contains(e.Backups, seller):
				others = append(others, name)
			}
		}
		for _, name := range primaries {
			add(name)
		}
		for _, name := range gather.SpreadZones(out, backups, func(n string) string { return s.machines[n].zone() }) {
			add(name)
		}
		alike = len(out)
		for _, name := range others {
			add(name)
		}
		for _, name := range s.lastHolders[seller] {
			add(name)
		}
		for _, name := range names {
			if slices.Contains(s.machines[name].Brings, seller) {
				add(name)
			}
		}
		out = append(out, s.departedHolders(seller)...)
	})
	return out, alike
}

// currentVersion is seller's version as the machine that last published itself its primary
// names it; not known when no live machine names itself primary with a version.
func (s *viewState) currentVersion(seller string) (version string, known bool) {
	var newest int64
	for name, e := range s.machines {
		ver, has := e.Versions[seller]
		if !has || !slices.Contains(e.Primaries, seller) {
			continue
		}
		if rev := s.modified[name]; !known || rev > newest || rev == newest && ver < version {
			version, newest, known = ver, rev, true
		}
	}
	return version, known
}

// candidatesFrom is candidates as machine self asks them: itself first when the view has it
// hold seller now (as primary or backup: the same data, read without a call, encoding or
// decoding) at the seller's current version, then the others in candidates' order. A machine
// that only held seller in an earlier view (its copy may be of an older version, or dropped), or
// whose copy is of another version than the current one (a new version being taken up: the
// primary published it first; or given away with its old data, its publish not landed yet),
// keeps its place. alike is candidates', or 1 when self holds the seller now: its own copy,
// which costs no call, is the one to ask first.
func (v *view) candidatesFrom(self, seller string) (out []string, alike int) {
	out, alike = v.candidates(seller)
	i := slices.Index(out, self)
	if i < 0 || i >= alike {
		return out, alike
	}
	return slices.Insert(slices.Delete(out, i, i+1), 0, self), 1
}

// heldByOthers reports whether a live machine other than self holds seller in the view.
func (v *view) heldByOthers(seller, self string) (held bool) {
	v.read(func(s *viewState) {
		for name, e := range s.machines {
			if name != self && (slices.Contains(e.Primaries, seller) || slices.Contains(e.Backups, seller)) {
				held = true
				return
			}
		}
	})
	return held
}

// everHeld returns every seller some machine has held since this view was made, sorted.
func (v *view) everHeld() (sellers []string) {
	v.read(func(s *viewState) { sellers = slices.Sorted(maps.Keys(s.lastHolders)) })
	return sellers
}

// brought returns the sellers the joining machines bring, sorted.
func (v *view) brought() (sellers []string) {
	v.read(func(s *viewState) {
		for _, e := range s.machines {
			sellers = append(sellers, e.Brings...)
		}
	})
	slices.Sort(sellers)
	return slices.Compact(sellers)
}
