package placement

import (
	"cmp"
	"fmt"
	"slices"
)

// balance gives every member its share of role r: ⌊S/n⌋ or ⌈S/n⌉ of the S sellers. Members
// above their share give the surplus away (shed), then every seller without a holder for r —
// lost, shed, or new — goes to a member below its share: first to one that has the seller's
// data (no data moves; for a primary that is a promotion), otherwise to the least-loaded one.
func (st *state) balance(r Role) error {
	n := len(st.members)
	if n == 0 {
		return nil
	}
	if r == Backup && n < 2 {
		for _, m := range st.members {
			for _, seller := range st.sellersOf(m, Backup) {
				st.unassign(seller, Backup)
			}
		}
		return nil
	}
	target := st.targets(r)
	st.shed(r, target)
	return st.place(r, target)
}

// targets decides each member's share of r. Of the n members, S mod n get one more than the
// others; those are the members that hold the most already, counting the lost sellers they can
// take without moving data, so that as little as possible moves; on a tie, those that can reach
// the larger share from the lost sellers they may take (not their own primaries' backups). A member can take a larger
// backup share only if enough sellers have their primary elsewhere (a share t with t+p > S, p
// its primaries, cannot be filled); balanced primaries always leave enough such members.
func (st *state) targets(r Role) map[string]int {
	total, n := len(st.sellers), len(st.members)
	base, extra := total/n, total%n
	free := map[string]int{} // lost sellers a member could take without moving data
	own := map[string]int{}  // lost sellers a member may not take (it is their primary)
	pending := st.pending(r)
	for _, seller := range pending {
		if r == Backup {
			own[st.holderOf(seller, Primary)]++
		}
		for _, x := range st.view.sources[seller] {
			if st.isMember(x) && st.allowed(seller, r, x) {
				free[x]++
			}
		}
	}
	type candidate struct {
		name                     string
		eligible                 bool
		likely, reachable, count int
	}
	cands := make([]candidate, 0, n)
	for _, m := range st.members {
		c := st.count(m, r)
		cands = append(cands, candidate{
			name:      m,
			eligible:  r == Primary || st.count(m, Primary)+base+1 <= total,
			likely:    min(c+free[m], base+1),
			reachable: min(c+len(pending)-own[m], base+1),
			count:     c,
		})
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if a.eligible != b.eligible {
			if a.eligible {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.likely, a.likely), cmp.Compare(b.reachable, a.reachable),
			cmp.Compare(b.count, a.count)) // then by name: members are in name order
	})
	target := make(map[string]int, n)
	for i, c := range cands {
		target[c.name] = base
		if i < extra {
			target[c.name] = base + 1
		}
	}
	return target
}

// shed takes from every member above its target the surplus of r, leaving those sellers without
// a holder. A member gives first the copies it has no data for yet (moving them costs nothing
// more), then copies another member below its target can take without moving data, then, for
// backups, copies some member other than the seller's primary can take, then by name.
func (st *state) shed(r Role, target map[string]int) {
	var receivers []string
	for _, m := range st.members {
		if st.count(m, r) < target[m] {
			receivers = append(receivers, m)
		}
	}
	for _, m := range st.members {
		surplus := st.count(m, r) - target[m]
		if surplus <= 0 {
			continue
		}
		own := st.sellersOf(m, r)
		rank := make(map[string]int, len(own))
		for _, seller := range own {
			rank[seller] = st.shedRank(seller, r, m, target, receivers)
		}
		slices.SortStableFunc(own, func(a, b string) int { return cmp.Compare(rank[a], rank[b]) })
		for _, seller := range own[:surplus] {
			st.unassign(seller, r)
		}
	}
}

func (st *state) shedRank(seller string, r Role, giver string, target map[string]int, receivers []string) int {
	if !st.view.hasData(seller, giver) {
		return 0
	}
	for _, x := range st.view.sources[seller] {
		if x != giver && st.isMember(x) && st.count(x, r) < target[x] && st.allowed(seller, r, x) {
			return 1
		}
	}
	for _, x := range receivers {
		if st.allowed(seller, r, x) {
			return 2
		}
	}
	return 3
}

// place gives every seller without a holder for r to a member below its target: in a first pass
// to members that have the seller's data, in a second to the least-loaded member (by name on a
// tie). A backup that no member below target may take (each is the seller's primary) is placed
// by shifting backups along a path to a member that has room.
func (st *state) place(r Role, target map[string]int) error {
	var rest []string
	for _, seller := range st.pending(r) {
		best := ""
		for _, x := range st.view.sources[seller] {
			if st.isMember(x) && st.count(x, r) < target[x] && st.allowed(seller, r, x) &&
				(best == "" || st.count(x, r) < st.count(best, r)) {
				best = x
			}
		}
		if best == "" {
			rest = append(rest, seller)
			continue
		}
		st.assign(seller, r, best)
	}
	if r == Backup {
		return st.placeBackups(rest, target)
	}
	for _, seller := range rest {
		to := st.leastLoaded(seller, Primary, target)
		if to == "" {
			return fmt.Errorf("placement: no member can take seller %q as %s (planner bug)", seller, Primary)
		}
		st.assign(seller, Primary, to)
	}
	return nil
}

// leastLoaded returns the member below its target with the fewest sellers for r that may hold
// seller, the first by name on a tie; "" if there is none.
func (st *state) leastLoaded(seller string, r Role, target map[string]int) string {
	best := ""
	for _, m := range st.members {
		if st.count(m, r) < target[m] && st.allowed(seller, r, m) &&
			(best == "" || st.count(m, r) < st.count(best, r)) {
			best = m
		}
	}
	return best
}
