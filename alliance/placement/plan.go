package placement

import "fmt"

// Plan computes the round for snapshot s: who holds which seller afterwards, what must be
// fetched from where, what is promoted, dropped and lost. The steps and their order are in the
// package documentation: the two-copy planner for the two-copy model (two copies, every machine in
// a zone of its own), the general planner of replicas.go otherwise. Plan returns an error
// wrapping ErrInvalidSnapshot, naming the machine or seller, only when s is malformed (duplicate
// names, a seller PRIMARY on two machines, a non-joiner that brings sellers, replicas out of
// range, ...).
func Plan(s Snapshot) (Result, error) {
	if err := validate(s); err != nil {
		return Result{}, err
	}
	v := newView(s)
	k := replicas(s)
	if !v.twoCopyModel(k) {
		return planReplicas(v, k), nil
	}
	st := newState(v)
	if err := st.repair(); err != nil {
		return Result{}, err
	}
	for _, m := range v.machines {
		if m.Joining {
			if err := st.join(m); err != nil {
				return Result{}, err
			}
		}
	}
	return st.result(), nil
}

// repair performs steps 1–3: the machines that neither join nor leave keep their copies of the
// current version, and every seller that still has a data source somewhere — except those a
// joiner brings, which arrive with their joiner — is given a primary and a backup among them.
func (st *state) repair() error {
	v := st.view
	for _, m := range v.machines {
		if !m.Joining && !m.Leaving {
			st.addMember(m.Name)
		}
	}
	for _, seller := range v.known {
		if _, brought := v.winner[seller]; brought || len(v.sources[seller]) == 0 {
			continue
		}
		st.addSeller(seller)
		if p := v.primary[seller]; st.isMember(p) {
			st.assign(seller, Primary, p)
		}
		if b := v.backup(seller); st.isMember(b) {
			st.assign(seller, Backup, b)
		}
	}
	return st.rebalance("repair")
}

// join performs step 4 for one joiner: it enters with the sellers it brings as primaries. The
// second machine of an alliance mirrors the first; then both roles are balanced, which gives
// the joiner's sellers their backups on the least-loaded members and lets the joiner take its
// share from the members above the average.
func (st *state) join(m Machine) error {
	st.addMember(m.Name)
	for _, seller := range m.Brings {
		if st.view.winner[seller] != m.Name {
			continue // another joiner's version is kept
		}
		st.addSeller(seller)
		st.assign(seller, Primary, m.Name)
	}
	if len(st.members) == 2 {
		first := st.members[0]
		if first == m.Name {
			first = st.members[1]
		}
		for _, seller := range st.sellersOf(first, Primary) {
			st.assign(seller, Backup, m.Name)
		}
		for _, seller := range st.sellersOf(m.Name, Primary) {
			st.assign(seller, Backup, first)
		}
	}
	return st.rebalance("join of " + m.Name)
}

func (st *state) rebalance(step string) error {
	if err := st.balance(Primary); err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	if err := st.balance(Backup); err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	return nil
}
