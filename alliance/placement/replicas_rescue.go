package placement

// Role swaps alone cannot always bring the primary counts within one. The balance phase may
// leave a group of members that hold some sellers among themselves only, more sellers than
// members, while another member holds only sellers whose other holders each need them as their
// one PRIMARY. Example (K=2): zone z0 has 21 machines, two machines are zones of their own and 23
// sellers each have one copy in z0 and one on either of the two; machine b1 of z0 holds a single
// copy, of a seller that a26 must be PRIMARY of, while a24, a25 and a13 share four sellers only
// among themselves: someone there has two primaries and b1 none, and no role swap helps.
//
// Then one copy moves: a seller whose PRIMARY the most loaded members can reach by role swaps
// gives a copy to a member from which role swaps reach a member with at least two fewer
// primaries, and that member becomes the seller's PRIMARY. The move is between members whose
// loads differ by exactly one (the giver has more), so the loads stay as balanced as they were
// (larger gaps the balance phase has closed already); after it, role swaps lower the primary
// imbalance. The planner then balances copies and roles again: every balance move lowers the sum
// of the squared loads, every rescue keeps it and lowers the least primary imbalance role swaps
// can reach, so the loop ends.

// rescuePrimaries moves one copy as described above and reports whether it did: not when the
// primary counts are within one already, nor when no such move exists. A move that fetches
// nothing more (the taker has the data, or the giver had none) comes first; then sellers by
// name, givers and takers by name.
func (l *layout) rescuePrimaries() bool {
	if len(l.members) == 0 {
		return false
	}
	hi := 0
	for _, p := range l.primaries {
		hi = max(hi, p)
	}
	var stuck, short []int
	for m, p := range l.primaries {
		if p == hi {
			stuck = append(stuck, m)
		}
		if p <= hi-2 {
			short = append(short, m)
		}
	}
	if len(short) == 0 {
		return false
	}
	from := l.swapClosure(stuck, false)
	to := l.swapClosure(short, true)
	for _, free := range []bool{true, false} {
		for s := range l.sellers {
			if !from[l.primary[s]] {
				continue
			}
			for _, x := range l.holders[s] {
				for y := range l.members {
					if !to[y] || l.load(x) != l.load(y)+1 || !l.canMove(s, x, y) {
						continue
					}
					if free && l.hasData(s, x) && !l.hasData(s, y) {
						continue
					}
					l.remove(s, x)
					l.add(s, y)
					l.setPrimary(s, y)
					return true
				}
			}
		}
	}
	return false
}

// swapClosure returns the members that role swaps reach from start (backward: the members from
// which role swaps reach start), start included.
func (l *layout) swapClosure(start []int, backward bool) []bool {
	seen := make([]bool, len(l.members))
	queue := append([]int(nil), start...)
	for _, m := range start {
		seen[m] = true
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, s := range l.held[u] {
			var next []int
			switch {
			case !backward && l.primary[s] == u:
				next = l.holders[s] // u can hand s's PRIMARY to any other holder
			case backward && l.primary[s] != u:
				next = []int{l.primary[s]} // s's PRIMARY can hand it to u
			}
			for _, w := range next {
				if !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	return seen
}
