package placement

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// This file checks a Result of the general planner (K replicas, zones) against its Snapshot
// from first principles, without the planner's code: c = min(K, members) copies on distinct
// machines with one PRIMARY, the zone rule, primary counts within one, the balance bound, and the
// meaning of every Result field.

// zoneTruth is the zone rule of a snapshot, computed independently of replicas_zones.go.
type zoneTruth struct {
	copies, spread int
	zoneOf         map[string]string // remaining machine → its zone
	limit          map[string]int    // zone → the most copies of one seller it may hold
}

func newZoneTruth(s Snapshot) zoneTruth {
	zt := zoneTruth{zoneOf: map[string]string{}, limit: map[string]int{}}
	size := map[string]int{}
	for _, m := range s.Machines {
		if !m.Leaving {
			z := cmp.Or(m.Zone, m.Name)
			zt.zoneOf[m.Name] = z
			size[z]++
		}
	}
	k := cmp.Or(s.Replicas, 2)
	zt.copies = min(k, len(zt.zoneOf))
	zt.spread = min(zt.copies, len(size))
	level := 0
	for {
		room := 0
		for _, n := range size {
			room += min(n, level)
		}
		if room >= zt.copies {
			break
		}
		level++
	}
	for z, n := range size {
		zt.limit[z] = min(n, level)
	}
	return zt
}

// breaks returns why the holders of one seller break the zone rule, "" if they keep it.
func (zt zoneTruth) breaks(holders []string) string {
	per := map[string]int{}
	for _, m := range holders {
		per[zt.zoneOf[m]]++
	}
	for _, z := range slices.Sorted(maps.Keys(per)) {
		if per[z] > zt.limit[z] {
			return fmt.Sprintf("zone %s holds %d copies, limit %d", z, per[z], zt.limit[z])
		}
	}
	if len(per) < zt.spread {
		return fmt.Sprintf("copies span %d zones, want %d", len(per), zt.spread)
	}
	return ""
}

// holdings is a Result's final state seen per seller and per machine.
type holdings struct {
	primaryOf map[string][]string            // seller → machines holding it as PRIMARY
	holders   map[string][]string            // seller → machines holding a copy, sorted
	roles     map[string]map[string]Role     // machine → seller → role
	total     map[string]int                 // machine → copies
	prims     map[string]int                 // machine → primaries
	held      map[string]map[string]struct{} // machine → sellers
}

func newHoldings(res Result) holdings {
	h := holdings{primaryOf: map[string][]string{}, holders: map[string][]string{}, roles: map[string]map[string]Role{},
		total: map[string]int{}, prims: map[string]int{}, held: map[string]map[string]struct{}{}}
	for _, a := range res.Assignments {
		h.roles[a.Name] = map[string]Role{}
		h.held[a.Name] = map[string]struct{}{}
		for _, r := range []Role{Primary, Backup} {
			list := a.Primaries
			if r == Backup {
				list = a.Backups
			}
			for _, seller := range list {
				h.roles[a.Name][seller] = r
				h.held[a.Name][seller] = struct{}{}
				h.holders[seller] = append(h.holders[seller], a.Name)
				h.total[a.Name]++
				if r == Primary {
					h.primaryOf[seller] = append(h.primaryOf[seller], a.Name)
					h.prims[a.Name]++
				}
			}
		}
	}
	for _, list := range h.holders {
		slices.Sort(list)
	}
	return h
}

// checkReplicas returns every way res violates the general planner's contract for s.
func checkReplicas(s Snapshot, res Result) []string {
	tr, zt, h := newTruth(s), newZoneTruth(s), newHoldings(res)
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }

	var names []string
	for _, a := range res.Assignments {
		names = append(names, a.Name)
		if !slices.IsSorted(a.Primaries) || !slices.IsSorted(a.Backups) {
			fail("assignment of %s is not sorted", a.Name)
		}
		if len(a.Primaries)+len(a.Backups) != len(h.roles[a.Name]) {
			fail("%s lists a seller twice", a.Name)
		}
	}
	if !slices.Equal(names, tr.remaining) {
		fail("assignments are for %v, want the non-leaving machines %v", names, tr.remaining)
	}

	var wantLost []string
	for _, seller := range slices.Sorted(maps.Keys(tr.known)) {
		if len(tr.remaining) == 0 || !tr.hasSource(seller) {
			wantLost = append(wantLost, seller)
			if len(h.holders[seller]) > 0 {
				fail("seller %s has no source but is held", seller)
			}
			continue
		}
		if len(h.primaryOf[seller]) != 1 {
			fail("seller %s has primaries %v, want exactly one", seller, h.primaryOf[seller])
		}
		if len(h.holders[seller]) != zt.copies {
			fail("seller %s has copies on %v, want %d", seller, h.holders[seller], zt.copies)
		}
		if why := zt.breaks(h.holders[seller]); why != "" {
			fail("seller %s on %v breaks the zone rule: %s", seller, h.holders[seller], why)
		}
	}
	for seller := range h.holders {
		if !tr.known[seller] {
			fail("seller %s is assigned but appears nowhere in the snapshot", seller)
		}
	}
	if !slices.Equal(res.Lost, wantLost) {
		fail("lost = %v, want %v", res.Lost, wantLost)
	}

	if len(tr.remaining) > 0 {
		counts := slices.Collect(maps.Values(h.prims))
		for len(counts) < len(tr.remaining) {
			counts = append(counts, 0)
		}
		if lo, hi := slices.Min(counts), slices.Max(counts); hi-lo > 1 {
			fail("PRIMARY counts range from %d to %d", lo, hi)
		}
	}
	bad = append(bad, checkMoves(s, res, tr, h)...)
	slices.Sort(bad)
	return bad
}

// checkMoves checks Transfers, Promotions and Drops against the snapshot and the final holdings.
func checkMoves(s Snapshot, res Result, tr truth, h holdings) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	primaryWas, backupsWere := map[string]string{}, map[string][]string{}
	for _, m := range s.Machines {
		for _, seller := range m.Primaries {
			primaryWas[seller] = m.Name
		}
		for _, seller := range m.Backups {
			backupsWere[seller] = append(backupsWere[seller], m.Name)
		}
	}
	if !slices.IsSortedFunc(res.Transfers, func(a, b Transfer) int {
		return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Seller, b.Seller), cmp.Compare(a.Role, b.Role))
	}) {
		fail("transfers are not sorted by (To, Seller, Role)")
	}
	fetched := map[Copy]bool{}
	for _, t := range res.Transfers {
		c := Copy{Seller: t.Seller, Machine: t.To}
		if fetched[c] {
			fail("%s fetches %s twice", t.To, t.Seller)
		}
		fetched[c] = true
		if !tr.inSnap[t.From] || !tr.data(t.Seller, t.From) {
			fail("transfer %+v: source %s did not hold or bring the current %s", t, t.From, t.Seller)
		}
		want := tr.winner[t.Seller]
		if want == "" {
			want = primaryWas[t.Seller]
		}
		if want == "" {
			want = slices.Min(backupsWere[t.Seller])
		}
		if t.From != want {
			fail("transfer %+v: want it from %s (the bringer, else the PRIMARY, else the first BACKUP)", t, want)
		}
		if tr.data(t.Seller, t.To) {
			fail("transfer %+v to a machine that already has the data", t)
		}
		if h.roles[t.To][t.Seller] != t.Role {
			fail("transfer %+v: %s holds %s as %q afterwards", t, t.To, t.Seller, h.roles[t.To][t.Seller])
		}
	}
	var wantPromotions []Promotion
	for _, m := range tr.remaining {
		for _, seller := range slices.Sorted(maps.Keys(h.roles[m])) {
			role := h.roles[m][seller]
			if !tr.data(seller, m) && !fetched[Copy{Seller: seller, Machine: m}] {
				fail("%s holds %s as %s without data and without a transfer", m, seller, role)
			}
			if role == Primary && tr.data(seller, m) && slices.Contains(backupsWere[seller], m) {
				wantPromotions = append(wantPromotions, Promotion{Seller: seller, Machine: m})
			}
		}
	}
	if !slices.Equal(res.Promotions, wantPromotions) {
		fail("promotions = %v, want %v", res.Promotions, wantPromotions)
	}
	var wantDrops []Copy
	for _, m := range slices.Sorted(maps.Keys(tr.had)) {
		for _, seller := range slices.Sorted(maps.Keys(tr.had[m])) {
			if _, kept := h.held[m][seller]; !kept {
				wantDrops = append(wantDrops, Copy{Seller: seller, Machine: m})
			}
		}
	}
	if !slices.Equal(res.Drops, wantDrops) {
		fail("drops = %v, want %v", res.Drops, wantDrops)
	}
	return bad
}

// checkBalance checks the balance bound: (i) no copy can move from a machine to one with at
// least two fewer copies without breaking the zone rule or duplicating a copy (local
// optimality), and its corollary (ii) the totals of machines in one zone differ by at most one.
func checkBalance(s Snapshot, res Result) []string {
	return balanceViolations(newZoneTruth(s), newHoldings(res).holders)
}

// balanceViolations checks the balance bound for the copies holders (seller → machines) on the
// remaining machines of zt.
func balanceViolations(zt zoneTruth, holders map[string][]string) []string {
	total := map[string]int{}
	held := map[string][]string{}
	for _, seller := range slices.Sorted(maps.Keys(holders)) {
		for _, m := range holders[seller] {
			total[m]++
			held[m] = append(held[m], seller)
		}
	}
	var bad []string
	names := slices.Sorted(maps.Keys(zt.zoneOf))
	for _, a := range names {
		for _, b := range names {
			if total[a] < total[b]+2 {
				continue
			}
			for _, seller := range held[a] {
				if slices.Contains(holders[seller], b) {
					continue
				}
				moved := slices.Clone(holders[seller])
				moved[slices.Index(moved, a)] = b
				if zt.breaks(moved) == "" {
					bad = append(bad, fmt.Sprintf("%s (%d copies) could give %s to %s (%d copies)", a, total[a], seller, b, total[b]))
					break
				}
			}
		}
	}
	lo, hi := map[string]int{}, map[string]int{}
	for _, m := range names {
		z := zt.zoneOf[m]
		if _, ok := lo[z]; !ok {
			lo[z], hi[z] = total[m], total[m]
		}
		lo[z], hi[z] = min(lo[z], total[m]), max(hi[z], total[m])
	}
	for _, z := range slices.Sorted(maps.Keys(lo)) {
		if hi[z]-lo[z] > 1 {
			bad = append(bad, fmt.Sprintf("zone %s: totals range from %d to %d", z, lo[z], hi[z]))
		}
	}
	return bad
}
