package placement

// The zone rule says where one seller's copies may be. With c copies to place among members
// spread over Z zones, the copies must span min(c, Z) distinct zones, and no zone may hold more
// than L of them, where L is the water level: the smallest integer with Σ_z min(members_z, L) ≥ c.
// With Z ≥ c that is one copy per zone. Every seller has the same c and the same members, so the
// rule is computed once per round.

// zoneRule is the zone rule of a round.
type zoneRule struct {
	copies int   // c = min(K, members): the copies every seller gets
	spread int   // min(c, Z): the distinct zones a seller's copies must span
	limit  []int // zone → the most copies of one seller it may hold: min(members in it, L)
}

// newZoneRule computes the rule for k replicas over zones of the given member counts.
func newZoneRule(k int, zoneSize []int) zoneRule {
	n := 0
	for _, size := range zoneSize {
		n += size
	}
	r := zoneRule{copies: min(k, n), spread: min(k, n, len(zoneSize)), limit: make([]int, len(zoneSize))}
	level := 0
	for room := 0; room < r.copies; {
		level++
		room = 0
		for _, size := range zoneSize {
			room += min(size, level)
		}
	}
	for z, size := range zoneSize {
		r.limit[z] = min(size, level)
	}
	return r
}

// inZone counts seller s's copies in zone z.
func (l *layout) inZone(s, z int) int {
	count := 0
	for _, m := range l.holders[s] {
		if l.zoneOf[m] == z {
			count++
		}
	}
	return count
}

// spanned counts the distinct zones that hold a copy of seller s.
func (l *layout) spanned(s int) int {
	count := 0
	for i, m := range l.holders[s] {
		first := true
		for _, earlier := range l.holders[s][:i] {
			if l.zoneOf[earlier] == l.zoneOf[m] {
				first = false
				break
			}
		}
		if first {
			count++
		}
	}
	return count
}

// completable reports whether seller s's copies can be completed to c copies that keep the zone
// rule by adding copies only: no more than c copies, no zone above its limit, and enough copies
// still to place to reach the zones it lacks. (Adding copies to the zones it lacks, then to any
// zone below its limit, then completes it: the limits sum to at least c.)
func (l *layout) completable(s int) bool {
	if len(l.holders[s]) > l.rule.copies {
		return false
	}
	for _, m := range l.holders[s] {
		if l.inZone(s, l.zoneOf[m]) > l.rule.limit[l.zoneOf[m]] {
			return false
		}
	}
	return l.rule.spread-l.spanned(s) <= l.rule.copies-len(l.holders[s])
}

// canAdd reports whether member m may take a copy of seller s, which is completable and short
// of copies, so that it stays completable: m does not hold s, m's zone is below its limit, and
// a zone that already holds a copy takes another only while enough copies remain for the zones
// still lacking one.
func (l *layout) canAdd(s, m int) bool {
	if l.holds(m, s) {
		return false
	}
	here := l.inZone(s, l.zoneOf[m])
	if here >= l.rule.limit[l.zoneOf[m]] {
		return false
	}
	return here == 0 || l.rule.spread-l.spanned(s) < l.rule.copies-len(l.holders[s])
}

// canMove reports whether seller s's copy may move from member a to member b, s keeping the zone
// rule: b does not hold s yet, and unless both are in one zone, b's zone stays within its limit
// and the copies still span enough zones.
func (l *layout) canMove(s, a, b int) bool {
	if l.holds(b, s) {
		return false
	}
	za, zb := l.zoneOf[a], l.zoneOf[b]
	if za == zb {
		return true
	}
	there := l.inZone(s, zb)
	if there >= l.rule.limit[zb] {
		return false
	}
	leavesZone := l.inZone(s, za) == 1
	return !leavesZone || there == 0 || l.spanned(s) > l.rule.spread
}
