package placement

import (
	"maps"
	"slices"
)

// index maps a role to its slot in per-role arrays: 0 for PRIMARY, 1 for BACKUP.
func index(r Role) int {
	if r == Primary {
		return 0
	}
	return 1
}

// state is the assignment being built: which member holds which seller in which role, and
// which sellers still need a holder. Members are the machines that will hold sellers after the
// round; the view says who has data.
type state struct {
	view    *view
	members []string                       // sorted by name
	held    map[string]*[2]map[string]bool // member → its sellers per role
	holder  [2]map[string]string           // per role: seller → member
	need    [2]map[string]bool             // per role: sellers of the alliance without a holder
	sellers map[string]bool                // the sellers the members must hold
}

func newState(v *view) *state {
	st := &state{
		view:    v,
		held:    map[string]*[2]map[string]bool{},
		holder:  [2]map[string]string{{}, {}},
		need:    [2]map[string]bool{{}, {}},
		sellers: map[string]bool{},
	}
	return st
}

// addMember makes name a machine of the alliance, holding nothing yet.
func (st *state) addMember(name string) {
	i, _ := slices.BinarySearch(st.members, name)
	st.members = slices.Insert(st.members, i, name)
	st.held[name] = &[2]map[string]bool{{}, {}}
}

func (st *state) isMember(name string) bool { return st.held[name] != nil }

// addSeller makes seller one the members must hold; it needs both roles until assigned.
func (st *state) addSeller(seller string) {
	st.sellers[seller] = true
	for i := range st.need {
		if st.holder[i][seller] == "" {
			st.need[i][seller] = true
		}
	}
}

func (st *state) count(member string, r Role) int { return len(st.held[member][index(r)]) }

func (st *state) holderOf(seller string, r Role) string { return st.holder[index(r)][seller] }

// assign makes member seller's holder for r, taking it from its previous holder. A member that
// becomes primary of a seller it backs up is promoted: the seller then needs a new backup.
func (st *state) assign(seller string, r Role, member string) {
	st.unassign(seller, r)
	i := index(r)
	st.holder[i][seller] = member
	st.held[member][i][seller] = true
	delete(st.need[i], seller)
	if r == Primary && st.holderOf(seller, Backup) == member {
		st.unassign(seller, Backup)
	}
}

// unassign leaves seller without a holder for r.
func (st *state) unassign(seller string, r Role) {
	i := index(r)
	if old := st.holder[i][seller]; old != "" {
		delete(st.held[old][i], seller)
		delete(st.holder[i], seller)
	}
	if st.sellers[seller] {
		st.need[i][seller] = true
	}
}

// allowed reports whether member may hold seller for r: never as backup of its own primary.
func (st *state) allowed(seller string, r Role, member string) bool {
	return r == Primary || st.holderOf(seller, Primary) != member
}

// sellersOf returns member's sellers for r, sorted.
func (st *state) sellersOf(member string, r Role) []string {
	return slices.Sorted(maps.Keys(st.held[member][index(r)]))
}

// pending returns the sellers without a holder for r, sorted.
func (st *state) pending(r Role) []string {
	return slices.Sorted(maps.Keys(st.need[index(r)]))
}
