package placement

import (
	"cmp"
	"slices"
)

// result performs step 5: it compares the final assignment with the snapshot.
func (st *state) result() Result {
	v := st.view
	var res Result
	for _, m := range st.members {
		a := Assignment{Name: m, Primaries: st.sellersOf(m, Primary), Backups: st.sellersOf(m, Backup)}
		res.Assignments = append(res.Assignments, a)
		for _, r := range []Role{Primary, Backup} {
			list := a.Primaries
			if r == Backup {
				list = a.Backups
			}
			for _, seller := range list {
				if !v.hasData(seller, m) {
					res.Transfers = append(res.Transfers, Transfer{Seller: seller, Role: r, From: v.source(seller, r), To: m})
				} else if r == Primary && v.backup(seller) == m {
					res.Promotions = append(res.Promotions, Promotion{Seller: seller, Machine: m})
				}
			}
		}
	}
	slices.SortFunc(res.Transfers, func(a, b Transfer) int {
		return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Seller, b.Seller), cmp.Compare(a.Role, b.Role))
	})
	for _, m := range v.machines {
		for _, list := range [][]string{m.Primaries, m.Backups, m.Brings} {
			for _, seller := range list {
				if !st.isMember(m.Name) || (st.holderOf(seller, Primary) != m.Name && st.holderOf(seller, Backup) != m.Name) {
					res.Drops = append(res.Drops, Copy{Seller: seller, Machine: m.Name})
				}
			}
		}
	}
	slices.SortFunc(res.Drops, func(a, b Copy) int {
		return cmp.Or(cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.Seller, b.Seller))
	})
	for _, seller := range v.known {
		if st.holderOf(seller, Primary) == "" {
			res.Lost = append(res.Lost, seller)
		}
	}
	return res
}
