package placement

import "slices"

// The copies phase gives every seller its c copies, keeping the data where it is. It starts from
// every copy of the current data that a member holds (a joiner's brought seller starts on the
// joiner), takes away the copies that are too many or break the zone rule, from the most loaded
// members first, and places the missing ones on the least-loaded members the zone rule allows,
// visiting sellers in name order. Every choice sees the loads the earlier ones left.

// placeCopies performs the copies phase. Its PRIMARYs are provisional: the snapshot's PRIMARY
// (or the joiner that brought the seller) where it keeps its copy; the roles phase settles them.
func (l *layout) placeCopies() {
	for s, seller := range l.sellers {
		for _, m := range l.data[s] {
			l.add(s, m)
		}
		p := l.view.primary[seller]
		if w, brought := l.view.winner[seller]; brought {
			p = w
		}
		if m := l.member(p); m >= 0 && l.holds(m, s) {
			l.setPrimary(s, m)
		}
	}
	l.trimAll()
	for s := range l.sellers {
		l.fill(s)
	}
}

// trimAll drops surplus copies until every seller's copies can be completed under the zone
// rule. A seller's surplus copies are those in its most over-represented zones: the zone most
// over its limit, else the zone with the most copies (dropping there keeps the zones spanned).
// Of all sellers' surplus copies, one on the most loaded member goes first (a member with a
// surplus BACKUP before one with surplus PRIMARYs only, then the first by name), that member's
// BACKUPs before its PRIMARYs, then the first seller by name; so the drops of a lowered K or of
// a returning zone come off the fullest members and keep the PRIMARYs where they can.
func (l *layout) trimAll() {
	surplus := make([][]int, len(l.members)) // member → the sellers it holds a surplus copy of, ascending
	victims := make([][]int, len(l.sellers)) // seller → the members holding its surplus copies
	update := func(s int) {
		for _, m := range victims[s] {
			i, _ := slices.BinarySearch(surplus[m], s)
			surplus[m] = slices.Delete(surplus[m], i, i+1)
		}
		victims[s] = l.surplusCopies(s)
		for _, m := range victims[s] {
			i, _ := slices.BinarySearch(surplus[m], s)
			surplus[m] = slices.Insert(surplus[m], i, s)
		}
	}
	for s := range l.sellers {
		update(s)
	}
	backupOf := func(m int) int { // m's first surplus BACKUP, else its first surplus copy
		for _, s := range surplus[m] {
			if l.primary[s] != m {
				return s
			}
		}
		return surplus[m][0]
	}
	for {
		victim := -1
		for m := range l.members {
			if len(surplus[m]) == 0 {
				continue
			}
			if victim < 0 || l.load(m) > l.load(victim) ||
				(l.load(m) == l.load(victim) && l.primary[backupOf(victim)] == victim && l.primary[backupOf(m)] != m) {
				victim = m
			}
		}
		if victim < 0 {
			return
		}
		s := backupOf(victim)
		l.remove(s, victim)
		update(s)
	}
}

// surplusCopies returns the members holding seller s's copies in its most over-represented
// zones, ascending; none when s is completable.
func (l *layout) surplusCopies(s int) []int {
	if l.completable(s) {
		return nil
	}
	var out []int
	bestOver, bestCount := 0, 0
	for _, m := range l.holders[s] {
		z := l.zoneOf[m]
		count := l.inZone(s, z)
		over := count - l.rule.limit[z]
		switch {
		case len(out) == 0 || over > bestOver || (over == bestOver && count > bestCount):
			out, bestOver, bestCount = []int{m}, over, count
		case over == bestOver && count == bestCount:
			out = append(out, m)
		}
	}
	return out
}

// fill places seller s's missing copies, one at a time, each on the least-loaded member (then
// the first by name) that may take it under the zone rule; while the copies do not span enough
// zones, a zone with fewer of them comes first. Among the equally good members, one that would
// have no copy to give to a member with two fewer copies (settled) comes first, so that the
// balance phase need not move a copy that has its data where it is.
func (l *layout) fill(s int) {
	for len(l.holders[s]) < l.rule.copies {
		short := l.spanned(s) < l.rule.spread
		var best []int // the equally good members, in name order
		for m := range l.members {
			if !l.canAdd(s, m) {
				continue
			}
			switch {
			case len(best) == 0 || l.betterTaker(s, m, best[0], short):
				best = append(best[:0], m)
			case !l.betterTaker(s, best[0], m, short):
				best = append(best, m)
			}
		}
		taker := best[0] // there is one: s is completable and short of copies
		for _, m := range best {
			if l.settledWith(s, m) {
				taker = m
				break
			}
		}
		l.add(s, taker)
	}
}

// betterTaker reports whether member a is to take seller s's next copy before member b.
func (l *layout) betterTaker(s, a, b int, short bool) bool {
	if short {
		if ca, cb := l.inZone(s, l.zoneOf[a]), l.inZone(s, l.zoneOf[b]); ca != cb {
			return ca < cb
		}
	}
	return l.load(a) < l.load(b)
}

// settledWith reports whether member m, given a copy of seller s, could give none of its copies
// to a member with at least two copies fewer under the zone rule.
func (l *layout) settledWith(s, m int) bool {
	l.add(s, m)
	defer l.remove(s, m)
	low := l.load(m) - 2
	for y := range l.members {
		if l.load(y) > low {
			continue
		}
		for _, t := range l.held[m] {
			if l.canMove(t, m, y) {
				return false
			}
		}
	}
	return true
}
