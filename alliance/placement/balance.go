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

// placeBackups gives each pending backup, in name order, to the least-loaded member with room
// that is not its primary — unless that would make the rest impossible. With T backups left to
// place, a member m is tight when the sellers whose primary it is, plus its own room, reach T:
// those sellers can only use the others' room, so the next backup must be one of them, or go
// into m. Taking the tight member's sellers first (to the other tight member if there is one)
// keeps every step feasible. If the backups already placed leave no feasible completion,
// makeRoomForOwnPrimaries handles the one shape of pending backups that no order of placement
// can finish: a member g whose own primaries wait for backups outnumber the room on all other
// members (typically a joiner that brings sellers into an alliance whose other members are at
// their share). The surplus room is on g, which cannot take them; so g takes as many backups of
// other sellers from the most loaded members (by name on a tie), one per member in turn, and the
// room they leave takes g's sellers. This is the seed's "the joiner takes backups from the
// others, never a seller it holds as primary". It returns the pending list with the taken
// sellers added, sorted.
func (st *state) makeRoomForOwnPrimaries(pending []string, target map[string]int) []string {
	waiting := map[string]int{}
	for _, seller := range pending {
		waiting[st.holderOf(seller, Primary)]++
	}
	room := 0
	for _, m := range st.members {
		room += target[m] - st.count(m, Backup)
	}
	for _, g := range st.members {
		short := waiting[g] - (room - (target[g] - st.count(g, Backup)))
		if short <= 0 {
			continue
		}
		givers := slices.Clone(st.members)
		slices.SortStableFunc(givers, func(a, b string) int { return cmp.Compare(st.count(b, Backup), st.count(a, Backup)) })
		for short > 0 {
			progress := false
			for _, m := range givers {
				if short == 0 {
					break
				}
				if m == g {
					continue
				}
				for _, seller := range st.sellersOf(m, Backup) {
					if st.holderOf(seller, Primary) != g {
						st.unassign(seller, Backup)
						pending = append(pending, seller)
						short--
						progress = true
						break
					}
				}
			}
			if !progress {
				break // nothing movable: shiftBackups will report it
			}
		}
		slices.Sort(pending)
		return pending // at most one member can be short: its room exceeds all other sellers' needs
	}
	return pending
}

// shiftBackups moves some of them.
func (st *state) placeBackups(pending []string, target map[string]int) error {
	pending = st.makeRoomForOwnPrimaries(pending, target)
	group := map[string][]string{} // primary → its pending sellers, by name
	waiting := map[string]int{}    // primary → how many of them are not placed yet
	for _, seller := range pending {
		p := st.holderOf(seller, Primary)
		group[p] = append(group[p], seller)
		waiting[p]++
	}
	done := map[string]bool{}
	headOf := func(m string) string {
		for len(group[m]) > 0 && done[group[m][0]] {
			group[m] = group[m][1:]
		}
		if len(group[m]) == 0 {
			return ""
		}
		return group[m][0]
	}
	cursor := 0
	nextByName := func(not string) string {
		for i := cursor; i < len(pending); i++ {
			if !done[pending[i]] && st.holderOf(pending[i], Primary) != not {
				return pending[i]
			}
		}
		return ""
	}
	for left := len(pending); left > 0; left-- {
		var tight []string
		for _, m := range st.members {
			if waiting[m]+target[m]-st.count(m, Backup) >= left {
				tight = append(tight, m)
			}
		}
		var seller, to string
		switch {
		case len(tight) == 0:
			seller = nextByName("")
			to = st.leastLoaded(seller, Backup, target)
		case headOf(tight[0]) != "":
			seller = headOf(tight[0])
			if len(tight) > 1 && st.count(tight[1], Backup) < target[tight[1]] {
				to = tight[1]
			} else {
				to = st.leastLoaded(seller, Backup, target)
			}
		default:
			seller = nextByName(tight[0])
			to = tight[0]
		}
		done[seller] = true
		waiting[st.holderOf(seller, Primary)]--
		for cursor < len(pending) && done[pending[cursor]] {
			cursor++
		}
		if to != "" {
			st.assign(seller, Backup, to)
			continue
		}
		if !st.shiftBackups(seller, target) {
			return fmt.Errorf("placement: no member can take seller %q as %s (planner bug)", seller, Backup)
		}
	}
	return nil
}

// shiftBackups places seller's backup on a full member and makes room there by moving one of its
// backups on, and so on, until a member below its target takes the last one: a shortest such
// path, found breadth-first in name order.
func (st *state) shiftBackups(seller string, target map[string]int) bool {
	type hop struct{ from, seller string }
	came := map[string]hop{}
	var queue []string
	for _, m := range st.members {
		if st.allowed(seller, Backup, m) {
			came[m] = hop{seller: seller}
			queue = append(queue, m)
		}
	}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if st.count(m, Backup) < target[m] {
			for at := m; ; {
				h := came[at]
				st.assign(h.seller, Backup, at)
				if h.from == "" {
					return true
				}
				at = h.from
			}
		}
		for _, moved := range st.sellersOf(m, Backup) {
			for _, next := range st.members {
				if _, seen := came[next]; !seen && st.allowed(moved, Backup, next) {
					came[next] = hop{from: m, seller: moved}
					queue = append(queue, next)
				}
			}
		}
	}
	return false
}
