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
// Of all sellers' surplus copies, the one on the most loaded member goes first (then the first
// member by name), that member's BACKUPs before its PRIMARYs, then the first seller by name; so
// the drops of a lowered K or of a returning zone come off the fullest members.
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
	for {
		victim := -1
		for m := range l.members {
			if len(surplus[m]) > 0 && (victim < 0 || l.load(m) > l.load(victim)) {
				victim = m
			}
		}
		if victim < 0 {
			return
		}
		s := surplus[victim][0]
		for _, t := range surplus[victim] {
			if l.primary[t] != victim {
				s = t
				break
			}
		}
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
// zones, a zone with fewer of them comes first.
func (l *layout) fill(s int) {
	for len(l.holders[s]) < l.rule.copies {
		short := l.spanned(s) < l.rule.spread
		best := -1
		for m := range l.members {
			if !l.canAdd(s, m) {
				continue
			}
			if best < 0 || l.betterTaker(s, m, best, short) {
				best = m
			}
		}
		l.add(s, best) // there is one: s is completable and short of copies
	}
}

// betterTaker reports whether member a is to take seller s's next copy before member b (b comes
// first by name).
func (l *layout) betterTaker(s, a, b int, short bool) bool {
	if short {
		if ca, cb := l.inZone(s, l.zoneOf[a]), l.inZone(s, l.zoneOf[b]); ca != cb {
			return ca < cb
		}
	}
	return l.load(a) < l.load(b)
}
