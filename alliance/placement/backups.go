package placement

import (
	"cmp"
	"fmt"
	"slices"
)

// Backups are placed with more care than primaries: a seller's backup may not sit on its
// primary's member, so a careless order of placement can leave a backup nowhere to go.

// makeRoomForOwnPrimaries handles the one shape of pending backups that no order of placement
// can finish: a member g whose own primaries wait for backups outnumber the room on all other
// members (typically a joiner that brings sellers into an alliance whose other members are at
// their share). The surplus room is on g, which cannot take them; so g takes as many backups of
// other sellers from the most loaded members (by name on a tie), one per member in turn, and the
// room they leave takes g's sellers. This is the two-copy rule "the joiner takes backups from the
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

// placeBackups gives each pending backup, in name order, to the least-loaded member with room
// that is not its primary — unless that would make the rest impossible. With T backups left to
// place, a member m is tight when the sellers whose primary it is, plus its own room, reach T:
// those sellers can only use the others' room, so the next backup must be one of them, or go
// into m. Taking the tight member's sellers first (to the other tight member if there is one)
// keeps every step feasible. If the backups already placed leave no feasible completion,
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
