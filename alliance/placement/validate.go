package placement

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// ErrInvalidSnapshot is returned (wrapped, with a message naming the offending machine or
// seller) when a snapshot cannot describe a real alliance.
var ErrInvalidSnapshot = errors.New("invalid placement snapshot")

// validate checks the rules a snapshot must follow. Machines are checked in name order so that
// the error does not depend on the input order. A seller may be BACKUP on several machines (K > 2,
// or left over from a larger K), never PRIMARY on two.
func validate(s Snapshot) error {
	if s.Replicas < 0 || s.Replicas > MaxReplicas {
		return fmt.Errorf("%w: replicas is %d, want 1 to %d (0 means 2)", ErrInvalidSnapshot, s.Replicas, MaxReplicas)
	}
	machines := slices.Clone(s.Machines)
	slices.SortFunc(machines, func(a, b Machine) int { return cmp.Compare(a.Name, b.Name) })
	primaryOf := map[string]string{}
	for i, m := range machines {
		if m.Name == "" {
			return fmt.Errorf("%w: a machine has an empty name", ErrInvalidSnapshot)
		}
		if i > 0 && machines[i-1].Name == m.Name {
			return fmt.Errorf("%w: machine %q is listed twice", ErrInvalidSnapshot, m.Name)
		}
		if m.Joining && m.Leaving {
			return fmt.Errorf("%w: machine %q is both joining and leaving", ErrInvalidSnapshot, m.Name)
		}
		if m.Joining && len(m.Primaries)+len(m.Backups) > 0 {
			return fmt.Errorf("%w: joining machine %q lists held sellers; a joiner only brings", ErrInvalidSnapshot, m.Name)
		}
		if !m.Joining && len(m.Brings) > 0 {
			return fmt.Errorf("%w: machine %q brings sellers but is not joining", ErrInvalidSnapshot, m.Name)
		}
		seen := map[string]bool{}
		for _, list := range [][]string{m.Primaries, m.Backups, m.Brings} {
			for _, seller := range list {
				if seller == "" {
					return fmt.Errorf("%w: machine %q lists an empty seller name", ErrInvalidSnapshot, m.Name)
				}
				if seen[seller] {
					return fmt.Errorf("%w: machine %q lists seller %q twice", ErrInvalidSnapshot, m.Name, seller)
				}
				seen[seller] = true
			}
		}
		for _, seller := range m.Primaries {
			if other, ok := primaryOf[seller]; ok {
				return fmt.Errorf("%w: seller %q is PRIMARY on both %q and %q", ErrInvalidSnapshot, seller, other, m.Name)
			}
			primaryOf[seller] = m.Name
		}
	}
	known := slices.Clone(s.Sellers)
	slices.Sort(known)
	for i, seller := range known {
		if seller == "" {
			return fmt.Errorf("%w: the seller list has an empty name", ErrInvalidSnapshot)
		}
		if i > 0 && known[i-1] == seller {
			return fmt.Errorf("%w: the seller list names %q twice", ErrInvalidSnapshot, seller)
		}
	}
	return nil
}
