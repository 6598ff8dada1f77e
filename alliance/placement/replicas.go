package placement

import (
	"cmp"
	"slices"
)

// MaxReplicas is the largest K a snapshot may ask for.
const MaxReplicas = 5

// replicas is the snapshot's K: Replicas, or 2 (the two-copy model) when it is 0.
func replicas(s Snapshot) int {
	if s.Replicas == 0 {
		return 2
	}
	return s.Replicas
}

// layout is the general planner's assignment being built, for any K and any zones: which
// member holds a copy of which seller, and which copy is the PRIMARY. Members, zones and sellers
// are numbered in name order, so that every "first in order" is an index comparison and no map
// order can reach the result.
type layout struct {
	view      *view
	members   []string // the machines that hold sellers after the round, sorted
	zoneOf    []int    // member → its zone, numbered in zone name order
	rule      zoneRule
	sellers   []string // the sellers to place (those with a data source), sorted
	data      [][]int  // seller → the members that have its current data, ascending
	holders   [][]int  // seller → the members holding a copy, ascending
	held      [][]int  // member → the sellers it holds a copy of, ascending
	primary   []int    // seller → its PRIMARY member, -1 while it has none
	primaries []int    // member → how many sellers it is PRIMARY of
}

// planReplicas is the general planner: the package documentation's steps 1 and 2 (in the view),
// then the copies, balance and roles phases, then the result. When role swaps cannot bring the
// primary counts within one, a copy moves (replicas_rescue.go) and balance and roles run again.
func planReplicas(v *view, k int) Result {
	l := newLayout(v, k)
	l.placeCopies()
	for {
		l.balanceCopies()
		l.assignRoles()
		if !l.rescuePrimaries() {
			break
		}
	}
	return l.result()
}

// newLayout numbers the members (machines neither joining nor leaving, plus joiners), their
// zones and the sellers that have a data source, and computes the round's zone rule.
func newLayout(v *view, k int) *layout {
	l := &layout{view: v}
	zoneIndex := map[string]int{}
	var zoneNames []string
	for _, m := range v.machines {
		if m.Leaving {
			continue
		}
		l.members = append(l.members, m.Name)
		if _, ok := zoneIndex[zone(m)]; !ok {
			zoneIndex[zone(m)] = 0
			zoneNames = append(zoneNames, zone(m))
		}
	}
	slices.Sort(zoneNames)
	for z, name := range zoneNames {
		zoneIndex[name] = z
	}
	zoneSize := make([]int, len(zoneNames))
	for _, m := range v.machines {
		if !m.Leaving {
			l.zoneOf = append(l.zoneOf, zoneIndex[zone(m)])
			zoneSize[zoneIndex[zone(m)]]++
		}
	}
	l.rule = newZoneRule(k, zoneSize)
	if len(l.members) > 0 {
		for _, seller := range v.known {
			if len(v.sources[seller]) > 0 {
				l.sellers = append(l.sellers, seller)
			}
		}
	}
	l.data = make([][]int, len(l.sellers))
	for s, seller := range l.sellers {
		for _, name := range v.sources[seller] { // sorted by name, so ascending
			if m := l.member(name); m >= 0 {
				l.data[s] = append(l.data[s], m)
			}
		}
	}
	l.holders = make([][]int, len(l.sellers))
	l.held = make([][]int, len(l.members))
	l.primary = make([]int, len(l.sellers))
	for s := range l.primary {
		l.primary[s] = -1
	}
	l.primaries = make([]int, len(l.members))
	return l
}

// load is member m's total copies, primaries and backups.
func (l *layout) load(m int) int { return len(l.held[m]) }

func (l *layout) holds(m, s int) bool {
	_, found := slices.BinarySearch(l.holders[s], m)
	return found
}

// hasData reports whether member m has seller s's current data without fetching it.
func (l *layout) hasData(s, m int) bool {
	_, found := slices.BinarySearch(l.data[s], m)
	return found
}

// member returns name's member number, or -1 if it is not a member.
func (l *layout) member(name string) int {
	if i, found := slices.BinarySearch(l.members, name); found {
		return i
	}
	return -1
}

// add gives member m a copy of seller s, as BACKUP until the roles phase says otherwise.
func (l *layout) add(s, m int) {
	i, _ := slices.BinarySearch(l.holders[s], m)
	l.holders[s] = slices.Insert(l.holders[s], i, m)
	j, _ := slices.BinarySearch(l.held[m], s)
	l.held[m] = slices.Insert(l.held[m], j, s)
}

// remove takes seller s's copy from member m; if it was the PRIMARY, s has none for now.
func (l *layout) remove(s, m int) {
	i, _ := slices.BinarySearch(l.holders[s], m)
	l.holders[s] = slices.Delete(l.holders[s], i, i+1)
	j, _ := slices.BinarySearch(l.held[m], s)
	l.held[m] = slices.Delete(l.held[m], j, j+1)
	if l.primary[s] == m {
		l.setPrimary(s, -1)
	}
}

// setPrimary makes member m (a holder, or -1 for none) seller s's PRIMARY.
func (l *layout) setPrimary(s, m int) {
	if old := l.primary[s]; old >= 0 {
		l.primaries[old]--
	}
	l.primary[s] = m
	if m >= 0 {
		l.primaries[m]++
	}
}

// result compares the final layout with the snapshot, with the two-copy planner's conventions: a copy a
// member holds without its data is a Transfer with its final role, from the snapshot's PRIMARY,
// else its first BACKUP by name (or from the joiner that brought it); a snapshot BACKUP that is
// now PRIMARY in place is a Promotion; a copy held or brought in the snapshot and not held now is
// a Drop; a seller without a PRIMARY is Lost.
func (l *layout) result() Result {
	v := l.view
	var res Result
	for m, name := range l.members {
		a := Assignment{Name: name}
		for _, s := range l.held[m] {
			seller := l.sellers[s]
			role := Backup
			if l.primary[s] == m {
				role = Primary
				a.Primaries = append(a.Primaries, seller)
			} else {
				a.Backups = append(a.Backups, seller)
			}
			switch {
			case !l.hasData(s, m):
				res.Transfers = append(res.Transfers, Transfer{Seller: seller, Role: role, From: v.source(seller, Primary), To: name})
			case role == Primary && v.isBackup(seller, name):
				res.Promotions = append(res.Promotions, Promotion{Seller: seller, Machine: name})
			}
		}
		res.Assignments = append(res.Assignments, a)
	}
	slices.SortFunc(res.Transfers, func(a, b Transfer) int {
		return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Seller, b.Seller), cmp.Compare(a.Role, b.Role))
	})
	for _, m := range v.machines {
		for _, list := range [][]string{m.Primaries, m.Backups, m.Brings} {
			for _, seller := range list {
				if !l.keeps(m.Name, seller) {
					res.Drops = append(res.Drops, Copy{Seller: seller, Machine: m.Name})
				}
			}
		}
	}
	slices.SortFunc(res.Drops, func(a, b Copy) int {
		return cmp.Or(cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.Seller, b.Seller))
	})
	for _, seller := range v.known {
		if s, found := slices.BinarySearch(l.sellers, seller); !found || l.primary[s] < 0 {
			res.Lost = append(res.Lost, seller)
		}
	}
	return res
}

// keeps reports whether machine holds a copy of seller after the round.
func (l *layout) keeps(machine, seller string) bool {
	m := l.member(machine)
	s, found := slices.BinarySearch(l.sellers, seller)
	return m >= 0 && found && l.holds(m, s)
}
