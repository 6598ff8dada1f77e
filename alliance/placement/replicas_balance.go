package placement

import (
	"cmp"
	"slices"
)

// The balance phase evens out the members' loads (total copies, primaries and backups alike):
// while some member a holds at least two copies more than some member b, and a holds a seller b
// does not whose copy may move from a to b under the zone rule, it moves. Each move lowers the
// sum of the squared loads by at least two, so the phase ends, and it ends locally optimal: no
// copy can move from a member to one with at least two fewer copies without breaking the zone
// rule or duplicating a copy. Within a zone every move keeps the rule, so the loads of members of
// one zone end within one of each other; across zones they differ as much as the zone rule forces
// (with exactly c zones, a zone of one machine holds a copy of every seller).

// balanceCopies performs the balance phase. Each move is the first in a defined order: the most
// loaded giver, the least-loaded taker (then names), the first seller in the order of movable.
// A moved copy's role is settled by the roles phase.
func (l *layout) balanceCopies() {
	givers := make([]int, len(l.members))
	for m := range givers {
		givers[m] = m
	}
	takers := slices.Clone(givers)
	for {
		slices.SortFunc(givers, func(a, b int) int { return cmp.Or(cmp.Compare(l.load(b), l.load(a)), cmp.Compare(a, b)) })
		slices.SortFunc(takers, func(a, b int) int { return cmp.Or(cmp.Compare(l.load(a), l.load(b)), cmp.Compare(a, b)) })
		if !l.moveOne(givers, takers) {
			return
		}
	}
}

// moveOne makes the first move in the order of balanceCopies and reports whether there was one.
// Moves that fetch nothing more come first: a copy the taker has the data for (the copies phase
// dropped it there), or one the giver has no data for (its transfer goes to the taker instead);
// then a chain of such moves (freeChain); only then a move that fetches one more copy.
func (l *layout) moveOne(givers, takers []int) bool {
	return l.moveDirect(givers, takers, true) || l.freeChain(givers, takers) || l.moveDirect(givers, takers, false)
}

// moveDirect makes the first move from a giver to a taker with at least two copies fewer, only
// among the moves that fetch nothing more if free, and reports whether there was one.
func (l *layout) moveDirect(givers, takers []int, free bool) bool {
	var sellers []int
	for _, a := range givers {
		if l.load(a) < l.load(takers[0])+2 {
			break
		}
		sellers = l.candidates(a, free, sellers[:0])
		for _, b := range takers {
			if l.load(b)+2 > l.load(a) {
				break
			}
			for _, s := range sellers {
				if (!free || l.isFree(s, a, b)) && l.canMove(s, a, b) {
					l.remove(s, a)
					l.add(s, b)
					return true
				}
			}
		}
	}
	return false
}

// candidates appends to out the sellers, in name order, whose copy member a might give away:
// all of them, or if free only those that might move without fetching more: a has no data for
// it, or a member that does not hold it has.
func (l *layout) candidates(a int, free bool, out []int) []int {
	for _, s := range l.held[a] {
		if !free || !l.hasData(s, a) || !l.holdsAllData(s) {
			out = append(out, s)
		}
	}
	return out
}

// isFree reports whether moving seller s's copy from member a to member b fetches nothing more
// than the round fetches already: a has no data for it (b fetches instead), or b has.
func (l *layout) isFree(s, a, b int) bool { return !l.hasData(s, a) || l.hasData(s, b) }

// holdsAllData reports whether every member with seller s's data holds a copy of it.
func (l *layout) holdsAllData(s int) bool {
	for _, m := range l.data[s] {
		if !l.holds(m, s) {
			return false
		}
	}
	return true
}
