package placement

// A chain of free moves evens out loads where no single free move can: member a gives a copy to
// x, x gives another to y, ..., and the last takes one without giving, so only a and the last
// member change load. Each step is free (isFree: it fetches nothing more than the round fetches
// already) and keeps the zone rule. Example: after a failure, the copies phase placed a lost copy
// on x, and the next lost seller could only go to a, which x could not relieve directly; x's new
// copy moves on to a less loaded member and a's new copy to x, and nothing more is fetched.

// freeChain applies a shortest chain of free moves from a giver (most loaded first) to a member
// with at least two copies fewer than it, and reports whether there was one. The search is
// breadth-first, each member giving its sellers in name order to members in name order; a chain
// moves each seller at most once, so every step stays valid when the others are applied.
func (l *layout) freeChain(givers, takers []int) bool {
	const unseen = -2
	n := len(l.members)
	from := make([]int, n) // member → the member that gives it a copy on the chain; -1 for a source
	via := make([]int, n)  // member → the seller it receives
	root := make([]int, n) // member → the source its chain starts from
	for m := range from {
		from[m] = unseen
	}
	var queue []int
	for _, a := range givers {
		if l.load(a) < l.load(takers[0])+2 {
			break
		}
		from[a], root[a] = -1, a
		queue = append(queue, a)
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, s := range l.held[x] {
			if (l.hasData(s, x) && l.holdsAllData(s)) || l.onChain(s, x, from, via) {
				continue // no member could take it for free, or the chain moves it already
			}
			for y := range l.members {
				if from[y] != unseen || !l.isFree(s, x, y) || !l.canMove(s, x, y) {
					continue
				}
				from[y], via[y], root[y] = x, s, root[x]
				if l.load(y)+2 <= l.load(root[y]) {
					for at := y; from[at] >= 0; at = from[at] {
						l.remove(via[at], from[at])
						l.add(via[at], at)
					}
					return true
				}
				queue = append(queue, y)
			}
		}
	}
	return false
}

// onChain reports whether the chain that reaches member x moves seller s already.
func (l *layout) onChain(s, x int, from, via []int) bool {
	for at := x; from[at] >= 0; at = from[at] {
		if via[at] == s {
			return true
		}
	}
	return false
}
