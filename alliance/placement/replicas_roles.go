package placement

import (
	"cmp"
	"slices"
)

// The roles phase chooses each seller's PRIMARY among its holders. No data moves for it: a
// change of role is a Promotion (a BACKUP with data becomes PRIMARY) or shows only in the
// Assignments. A seller keeps its PRIMARY when that member still holds it; a seller that lost it
// promotes a holder that has its data (a surviving BACKUP), the one with the fewest primaries,
// then the first by name; only a seller none of whose holders has data yet takes any holder.
//
// Then primaries are balanced by chains of role swaps: a member u hands the PRIMARY of one of
// its sellers to another holder w of that seller; w may hand on one of its own, and so on. A
// chain from a member with p primaries to one with at most p−2 lowers the sum of the squared
// primary counts. When no such chain leaves the most loaded members, their count is the least
// any choice of primaries among the holders achieves: every seller whose PRIMARY they can reach
// is held only by members they can reach, all of which have at least max−1 primaries. Likewise
// for the least loaded members when no chain reaches them. So the counts end within one of each
// other whenever any choice of primaries among the holders allows it. When no choice does, the
// planner moves a copy (replicas_rescue.go) and balances again.
//
// Last, backups are evened out the same way: a chain from a member with the larger primary count
// to one with the smaller, when the latter has at least two more backups, swaps which of the two
// has the extra primary, so the primary counts stay within one and the backup counts get closer.

// assignRoles performs the roles phase.
func (l *layout) assignRoles() {
	for s := range l.sellers {
		if l.primary[s] < 0 {
			l.setPrimary(s, l.promotable(s))
		}
	}
	for l.shiftPrimary() {
	}
	for l.evenBackups() {
	}
}

// promotable returns the holder of seller s that becomes its PRIMARY when it has none: among the
// holders with data if there are any, else among all, the one with the fewest primaries, then
// the first by name.
func (l *layout) promotable(s int) int {
	best, bestData := -1, false
	for _, m := range l.holders[s] {
		data := l.hasData(s, m)
		if best < 0 || (data && !bestData) || (data == bestData && l.primaries[m] < l.primaries[best]) {
			best, bestData = m, data
		}
	}
	return best
}

// shiftPrimary moves one PRIMARY along a chain of role swaps that brings the primary counts
// closer, and reports whether there was one: first from a member with the most primaries to one
// with at least two fewer, else from any member to one with the fewest primaries and at least
// two fewer.
func (l *layout) shiftPrimary() bool {
	if len(l.members) == 0 {
		return false
	}
	hi, lo := slices.Max(l.primaries), slices.Min(l.primaries)
	if hi-lo <= 1 {
		return false
	}
	path := l.rolePath(l.membersWith(func(p int) bool { return p == hi }), func(w int) bool { return l.primaries[w] <= hi-2 })
	if path == nil {
		path = l.rolePath(l.membersWith(func(p int) bool { return p >= lo+2 }), func(w int) bool { return l.primaries[w] == lo })
	}
	l.swapAlong(path)
	return path != nil
}

// evenBackups makes one chain of role swaps from a member with the larger of the two primary
// counts to one with the smaller and at least two more backups, and reports whether there was
// one. Sources are tried by their backups, fewest first, then by name.
func (l *layout) evenBackups() bool {
	if len(l.members) == 0 {
		return false
	}
	hi := slices.Max(l.primaries)
	sources := l.membersWith(func(p int) bool { return p == hi })
	if len(sources) == len(l.members) {
		return false
	}
	backups := func(m int) int { return l.load(m) - l.primaries[m] }
	slices.SortStableFunc(sources, func(a, b int) int { return cmp.Compare(backups(a), backups(b)) })
	for _, u := range sources {
		path := l.rolePath([]int{u}, func(w int) bool { return l.primaries[w] < hi && backups(w) >= backups(u)+2 })
		if path != nil {
			l.swapAlong(path)
			return true
		}
	}
	return false
}

// membersWith returns the members whose primary count satisfies ok, in name order.
func (l *layout) membersWith(ok func(primaries int) bool) []int {
	var out []int
	for m, p := range l.primaries {
		if ok(p) {
			out = append(out, m)
		}
	}
	return out
}

// swap is one step of a chain: seller's PRIMARY goes to member to.
type swap struct{ seller, to int }

// rolePath finds a shortest chain of role swaps from one of sources to a member that accept
// takes: breadth-first, each member handing on the PRIMARYs it holds in seller order, each to
// the seller's other holders in name order. It returns nil if there is none.
func (l *layout) rolePath(sources []int, accept func(m int) bool) []swap {
	const unseen = -2
	came := make([]swap, len(l.members)) // member → the swap that reached it
	from := make([]int, len(l.members))  // member → the member that handed it on; -1 for a source
	for m := range from {
		from[m] = unseen
	}
	queue := slices.Clone(sources)
	for _, u := range sources {
		from[u] = -1
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, s := range l.held[u] {
			if l.primary[s] != u {
				continue
			}
			for _, w := range l.holders[s] {
				if from[w] != unseen {
					continue
				}
				from[w], came[w] = u, swap{seller: s, to: w}
				if !accept(w) {
					queue = append(queue, w)
					continue
				}
				var path []swap
				for at := w; from[at] >= 0; at = from[at] {
					path = append(path, came[at])
				}
				return path
			}
		}
	}
	return nil
}

// swapAlong applies a chain: every member on it keeps its count but the first, which loses a
// PRIMARY, and the last, which gains one.
func (l *layout) swapAlong(path []swap) {
	for _, sw := range path {
		l.setPrimary(sw.seller, sw.to)
	}
}
