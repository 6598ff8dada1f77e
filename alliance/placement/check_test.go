package placement

import (
	"cmp"
	"fmt"
	"slices"
)

// This file checks a Result against its Snapshot from first principles, without the planner's
// code: the placement invariants of docs/design.md ("What must hold") and the meaning of every Result field.

// truth is what a snapshot says, computed independently of view.go.
type truth struct {
	remaining []string                   // non-leaving machines, sorted
	inSnap    map[string]bool            // every machine of the snapshot
	winner    map[string]string          // brought seller → smallest joiner bringing it
	had       map[string]map[string]bool // machine → sellers it held or brought
	backupOf  map[string]string          // seller → snapshot BACKUP holder
	known     map[string]bool
}

func newTruth(s Snapshot) truth {
	tr := truth{inSnap: map[string]bool{}, winner: map[string]string{}, had: map[string]map[string]bool{},
		backupOf: map[string]string{}, known: map[string]bool{}}
	for _, m := range s.Machines {
		tr.inSnap[m.Name] = true
		if !m.Leaving {
			tr.remaining = append(tr.remaining, m.Name)
		}
		tr.had[m.Name] = map[string]bool{}
		for _, list := range [][]string{m.Primaries, m.Backups, m.Brings} {
			for _, seller := range list {
				tr.had[m.Name][seller] = true
				tr.known[seller] = true
			}
		}
		for _, seller := range m.Brings {
			if w, ok := tr.winner[seller]; !ok || m.Name < w {
				tr.winner[seller] = m.Name
			}
		}
		for _, seller := range m.Backups {
			tr.backupOf[seller] = m.Name
		}
	}
	for _, seller := range s.Sellers {
		tr.known[seller] = true
	}
	slices.Sort(tr.remaining)
	return tr
}

// data reports whether machine has the current version of seller in the snapshot.
func (tr truth) data(seller, machine string) bool {
	if w, ok := tr.winner[seller]; ok {
		return w == machine
	}
	return tr.had[machine][seller]
}

func (tr truth) hasSource(seller string) bool {
	for m := range tr.had {
		if tr.data(seller, m) {
			return true
		}
	}
	return false
}

// checkResult returns every way res violates the invariants for s; nil when it holds them all.
func checkResult(s Snapshot, res Result) []string {
	tr := newTruth(s)
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }

	names := []string{}
	final := map[string][2]map[string]bool{}
	primaryOf, backupsOf := map[string][]string{}, map[string][]string{}
	for _, a := range res.Assignments {
		names = append(names, a.Name)
		if !slices.IsSorted(a.Primaries) || !slices.IsSorted(a.Backups) {
			fail("assignment of %s is not sorted", a.Name)
		}
		sets := [2]map[string]bool{{}, {}}
		for _, seller := range a.Primaries {
			sets[0][seller] = true
			primaryOf[seller] = append(primaryOf[seller], a.Name)
		}
		for _, seller := range a.Backups {
			sets[1][seller] = true
			backupsOf[seller] = append(backupsOf[seller], a.Name)
		}
		final[a.Name] = sets
	}
	if !slices.Equal(names, tr.remaining) {
		fail("assignments are for %v, want the non-leaving machines %v", names, tr.remaining)
	}

	// Invariant 1 and Lost.
	var wantLost []string
	for seller := range tr.known {
		if len(tr.remaining) == 0 || !tr.hasSource(seller) {
			wantLost = append(wantLost, seller)
			if len(primaryOf[seller])+len(backupsOf[seller]) > 0 {
				fail("seller %s has no source but is held", seller)
			}
			continue
		}
		if len(primaryOf[seller]) != 1 {
			fail("seller %s has primaries %v, want exactly one", seller, primaryOf[seller])
		}
		wantBackups := 1
		if len(tr.remaining) < 2 {
			wantBackups = 0
		}
		if len(backupsOf[seller]) != wantBackups {
			fail("seller %s has backups %v, want %d", seller, backupsOf[seller], wantBackups)
		} else if wantBackups == 1 && len(primaryOf[seller]) == 1 && backupsOf[seller][0] == primaryOf[seller][0] {
			fail("seller %s has primary and backup on %s", seller, backupsOf[seller][0])
		}
	}
	for seller := range primaryOf {
		if !tr.known[seller] {
			fail("seller %s is assigned but appears nowhere in the snapshot", seller)
		}
	}
	slices.Sort(wantLost)
	if !slices.Equal(res.Lost, wantLost) {
		fail("lost = %v, want %v", res.Lost, wantLost)
	}

	// Invariant 2.
	for i, role := range []Role{Primary, Backup} {
		lo, hi := -1, -1
		for _, m := range tr.remaining {
			c := len(final[m][i])
			if lo < 0 || c < lo {
				lo = c
			}
			if c > hi {
				hi = c
			}
		}
		if hi-lo > 1 {
			fail("%s counts range from %d to %d", role, lo, hi)
		}
	}

	// Transfers: valid sources, one per (seller, role), exactly the copies that need data.
	if !slices.IsSortedFunc(res.Transfers, func(a, b Transfer) int {
		return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Seller, b.Seller), cmp.Compare(a.Role, b.Role))
	}) {
		fail("transfers are not sorted by (To, Seller, Role)")
	}
	moved := map[[2]string]bool{}
	for _, t := range res.Transfers {
		key := [2]string{t.Seller, string(t.Role)}
		if moved[key] {
			fail("seller %s moves twice as %s", t.Seller, t.Role)
		}
		moved[key] = true
		if !tr.inSnap[t.From] || !tr.data(t.Seller, t.From) {
			fail("transfer %+v: source %s did not hold or bring the current %s", t, t.From, t.Seller)
		}
		if t.From == t.To {
			fail("transfer %+v from a machine to itself", t)
		}
		if tr.data(t.Seller, t.To) {
			fail("transfer %+v to a machine that already has the data", t)
		}
		if sets, ok := final[t.To]; !ok || !sets[index(t.Role)][t.Seller] {
			fail("transfer %+v: %s does not hold %s as %s afterwards", t, t.To, t.Seller, t.Role)
		}
	}
	var wantPromotions []Promotion
	for _, m := range tr.remaining {
		for i, role := range []Role{Primary, Backup} {
			for seller := range final[m][i] {
				if !tr.data(seller, m) && !moved[[2]string{seller, string(role)}] {
					fail("%s holds %s as %s without data and without a transfer", m, seller, role)
				}
				if role == Primary && tr.data(seller, m) && tr.backupOf[seller] == m {
					wantPromotions = append(wantPromotions, Promotion{Seller: seller, Machine: m})
				}
			}
		}
	}
	slices.SortFunc(wantPromotions, func(a, b Promotion) int {
		return cmp.Or(cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.Seller, b.Seller))
	})
	if !slices.Equal(res.Promotions, wantPromotions) {
		fail("promotions = %v, want %v", res.Promotions, wantPromotions)
	}

	var wantDrops []Copy
	for m, sellers := range tr.had {
		for seller := range sellers {
			sets, ok := final[m]
			if !ok || (!sets[0][seller] && !sets[1][seller]) {
				wantDrops = append(wantDrops, Copy{Seller: seller, Machine: m})
			}
		}
	}
	slices.SortFunc(wantDrops, func(a, b Copy) int {
		return cmp.Or(cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.Seller, b.Seller))
	})
	if !slices.Equal(res.Drops, wantDrops) {
		fail("drops = %v, want %v", res.Drops, wantDrops)
	}
	slices.Sort(bad)
	return bad
}

// lowerBound is the number of copies that must be fetched in any round that restores the
// invariants from s, whatever the planner. Two shortfalls force fetches:
//   - seller shortfall: the copies of a seller that no remaining machine has data for (a seller
//     needs two data holders among the remaining machines, one when a single machine remains);
//   - machine shortfall: a machine that has data for fewer sellers than the smallest share it
//     must end with (⌊S/n⌋ primaries plus ⌊S/n⌋ backups) must fetch the difference.
//
// One fetch counts toward both only if it brings a short seller to a short machine that lacks
// its data, at most once per (seller, machine); the bound is the sum minus the most such fetches
// there can be.
func lowerBound(s Snapshot) int {
	tr := newTruth(s)
	n := len(tr.remaining)
	if n == 0 {
		return 0
	}
	copies, total := 2, 0
	if n == 1 {
		copies = 1
	}
	sellerShort := map[string]int{}
	dataOn := map[string]int{}
	for seller := range tr.known {
		if !tr.hasSource(seller) {
			continue
		}
		total++
		holders := 0
		for _, m := range tr.remaining {
			if tr.data(seller, m) {
				holders++
				dataOn[m]++
			}
		}
		if short := copies - holders; short > 0 {
			sellerShort[seller] = short
		}
	}
	share := total / n
	if n >= 2 {
		share *= 2
	}
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
