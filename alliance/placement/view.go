package placement

import (
	"cmp"
	"slices"
)

// view is the snapshot in a canonical form: machines sorted by name with sorted lists, and what
// step 1 (old versions) decides. Everything later reads the snapshot through it.
type view struct {
	machines []Machine           // sorted by name, every list sorted
	winner   map[string]string   // seller → the joiner whose brought copy is the version kept
	primary  map[string]string   // seller → its PRIMARY holder in the snapshot
	backups  map[string][]string // seller → its BACKUP holders in the snapshot, sorted
	sources  map[string][]string // seller → machines with usable data for it, sorted
	known    []string            // every seller the snapshot names, sorted
}

func newView(s Snapshot) *view {
	v := &view{
		winner:  map[string]string{},
		primary: map[string]string{},
		backups: map[string][]string{},
		sources: map[string][]string{},
	}
	for _, m := range s.Machines {
		m.Primaries, m.Backups, m.Brings = sorted(m.Primaries), sorted(m.Backups), sorted(m.Brings)
		v.machines = append(v.machines, m)
	}
	slices.SortFunc(v.machines, func(a, b Machine) int { return cmp.Compare(a.Name, b.Name) })

	known := map[string]bool{}
	for _, seller := range s.Sellers {
		known[seller] = true
	}
	for _, m := range v.machines { // name order: the smallest joiner bringing a seller wins
		for _, seller := range m.Brings {
			if _, ok := v.winner[seller]; !ok {
				v.winner[seller] = m.Name
				v.sources[seller] = []string{m.Name}
			}
			known[seller] = true
		}
	}
	for _, m := range v.machines {
		for _, seller := range m.Primaries {
			v.primary[seller] = m.Name
			v.addHeld(seller, m.Name)
			known[seller] = true
		}
		for _, seller := range m.Backups {
			v.backups[seller] = append(v.backups[seller], m.Name) // name order: sorted
			v.addHeld(seller, m.Name)
			known[seller] = true
		}
	}
	for seller := range known {
		v.known = append(v.known, seller)
	}
	slices.Sort(v.known)
	for _, list := range v.sources {
		slices.Sort(list)
	}
	return v
}

// addHeld records a held copy as a data source unless a joiner brings a newer version.
func (v *view) addHeld(seller, machine string) {
	if _, replaced := v.winner[seller]; !replaced {
		v.sources[seller] = append(v.sources[seller], machine)
	}
}

// hasData reports whether machine can serve seller's current version without fetching it.
func (v *view) hasData(seller, machine string) bool {
	_, found := slices.BinarySearch(v.sources[seller], machine)
	return found
}

// backup is seller's BACKUP holder in the snapshot in the two-copy model, which has at most one;
// "" if there is none.
func (v *view) backup(seller string) string {
	if list := v.backups[seller]; len(list) > 0 {
		return list[0]
	}
	return ""
}

// isBackup reports whether machine held seller as BACKUP in the snapshot.
func (v *view) isBackup(seller, machine string) bool {
	return slices.Contains(v.backups[seller], machine)
}

// source is the machine a transfer of seller for role fetches from: the joiner that brought the
// kept version, else the snapshot's holder of the same role, else the holder of the other role
// (the first BACKUP holder by name when there are several).
func (v *view) source(seller string, role Role) string {
	if w, ok := v.winner[seller]; ok {
		return w
	}
	same, other := v.primary[seller], v.backup(seller)
	if role == Backup {
		same, other = other, same
	}
	if same != "" {
		return same
	}
	return other
}

// zone is the failure domain of m: its Zone, or its own name when it names none.
func zone(m Machine) string {
	if m.Zone == "" {
		return m.Name
	}
	return m.Zone
}

// twoCopyModel reports whether the snapshot is in the two-copy model, which the two-copy planner
// (repair and join, steps 3 and 4) handles: two copies, every machine in a zone of its own, and
// at most one BACKUP per seller (more are left over from a larger K).
func (v *view) twoCopyModel(replicas int) bool {
	if replicas != 2 {
		return false
	}
	zones := map[string]bool{}
	for _, m := range v.machines {
		if zones[zone(m)] {
			return false
		}
		zones[zone(m)] = true
	}
	for _, list := range v.backups {
		if len(list) > 1 {
			return false
		}
	}
	return true
}

func sorted(list []string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	return out
}
