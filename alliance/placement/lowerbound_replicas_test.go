package placement

// twoCopyModelOf reports whether Plan hands s to the two-copy planner.
func twoCopyModelOf(s Snapshot) bool { return newView(s).twoCopyModel(replicas(s)) }

// lowerBoundK generalises lowerBound: the copies any planner must fetch to restore the
// invariants from s. In the two-copy model it is lowerBound. Otherwise the seller shortfall counts,
// for each seller, the copies short of c after keeping the most data holders the zone rule
// allows (per zone at most its limit; at most c − spread + the zones they span), and the machine
// shortfall counts PRIMARYs only: every machine ends with at least ⌊S/n⌋ of them, the only
// per-machine share the general planner guarantees for any zones.
func lowerBoundK(s Snapshot) int {
	if twoCopyModelOf(s) {
		return lowerBound(s)
	}
	tr, zt := newTruth(s), newZoneTruth(s)
	n := len(tr.remaining)
	if n == 0 {
		return 0
	}
	total := 0
	sellerShort := map[string]int{}
	dataOn := map[string]int{}
	for seller := range tr.known {
		if !tr.hasSource(seller) {
			continue
		}
		total++
		per := map[string]int{}
		for _, m := range tr.remaining {
			if tr.data(seller, m) {
				per[zt.zoneOf[m]]++
				dataOn[m]++
			}
		}
		keep := 0
		for z, c := range per {
			keep += min(c, zt.limit[z])
		}
		keep = min(keep, zt.copies, zt.copies-zt.spread+len(per))
		if short := zt.copies - keep; short > 0 {
			sellerShort[seller] = short
		}
	}
	share := total / n
	var bySellers, byMachines, overlap int
	for _, short := range sellerShort {
		bySellers += short
	}
	for _, m := range tr.remaining {
		short := max(0, share-dataOn[m])
		byMachines += short
		lacking := 0
		for seller := range sellerShort {
			if !tr.data(seller, m) {
				lacking++
			}
		}
		overlap += min(short, lacking)
	}
	return bySellers + byMachines - min(overlap, bySellers, byMachines)
}
