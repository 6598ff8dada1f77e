package alliance

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/placement"
)

// copies are the sellers' data this machine has: the copies the tree assigns to it, the sellers it
// brought from its own files, and copies it no longer holds but has not dropped yet. It is safe for concurrent
// use; readers see one consistent state per call.
type copies struct {
	mu      sync.RWMutex
	data    map[string]*flight.Seller // every seller this machine can read or send, whatever the role
	roles   map[string]placement.Role // the committed assignment
	brought map[string]*flight.Seller // the sellers of this machine's --seller files
	joining bool                      // true until a round that included this machine has committed
	// offerOwn: the machine offers its own sellers when it joins — only at its first join. A
	// machine that lost its session and rejoins must not bring back file data the alliance may
	// have replaced with a newer version meanwhile.
	offerOwn bool
	// gen counts rejoins: a commit or a drop planned before a rejoin must not land after it.
	gen uint64
}

func newCopies(brought map[string]*flight.Seller) *copies {
	s := &copies{
		data:     make(map[string]*flight.Seller),
		roles:    make(map[string]placement.Role),
		brought:  brought,
		joining:  true,
		offerOwn: true,
	}
	for code, sel := range brought {
		s.data[code] = sel
	}
	return s
}

// seller returns this machine's copy of code, whatever its role.
func (s *copies) seller(code string) (*flight.Seller, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sel, ok := s.data[code]
	return sel, ok
}

// assignment returns the committed primaries and backups, sorted.
func (s *copies) assignment() (primaries, backups []string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.assignmentLocked()
}

func (s *copies) assignmentLocked() (primaries, backups []string) {
	primaries, backups = []string{}, []string{}
	for code, role := range s.roles {
		if role == placement.Primary {
			primaries = append(primaries, code)
		} else {
			backups = append(backups, code)
		}
	}
	sort.Strings(primaries)
	sort.Strings(backups)
	return primaries, backups
}

// holding is what this machine publishes when it enters a round: what it holds now and, while
// it is joining, what it brings: its own sellers, and the copies it still has that rescue says
// nobody else holds (a machine that lost its session and rejoins must not let the alliance
// forget a seller whose other copy is gone).
func (s *copies) holding(name string, leaving bool, rescue func(code string) bool) holding {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h := holding{Name: name, Leaving: leaving, Versions: map[string]string{}}
	h.Primaries, h.Backups = s.assignmentLocked()
	for code := range s.roles {
		if sel := s.data[code]; sel != nil {
			h.Versions[code] = sel.Version()
		}
	}
	if s.joining {
		for code, sel := range s.data {
			if _, own := s.brought[code]; (own && s.offerOwn) || (rescue != nil && rescue(code)) {
				h.Brings = append(h.Brings, code)
				h.Versions[code] = sel.Version()
			}
		}
		sort.Strings(h.Brings)
		h.Joining = true
	}
	return h
}

// generation identifies the copies' current incarnation (it changes at every rejoin).
func (s *copies) generation() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.gen
}

// commit adopts a committed assignment: fetched copies join the data, roles are replaced, and the
// copies that are no longer assigned are returned so the caller can drop them once the tree shows
// their new holders. Nothing is dropped here. A commit for a round entered before a rejoin (gen)
// is refused: that round's holding no longer describes this machine. So is an assignment of a
// seller this machine has no data for — it would publish a copy it cannot serve.
func (s *copies) commit(gen uint64, a placement.Assignment, fetched map[string]*flight.Seller) (unassigned []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen {
		return nil, fmt.Errorf("round planned before this machine rejoined")
	}
	for _, code := range append(slices.Clone(a.Primaries), a.Backups...) {
		if _, ok := fetched[code]; !ok && s.data[code] == nil {
			return nil, fmt.Errorf("assigned seller %s without its data", code)
		}
	}
	for code, sel := range fetched {
		s.data[code] = sel
	}
	s.roles = make(map[string]placement.Role, len(a.Primaries)+len(a.Backups))
	for _, code := range a.Primaries {
		s.roles[code] = placement.Primary
	}
	for _, code := range a.Backups {
		s.roles[code] = placement.Backup
	}
	s.joining = false
	for code := range s.data {
		if _, ok := s.roles[code]; !ok {
			unassigned = append(unassigned, code)
		}
	}
	sort.Strings(unassigned)
	s.offerOwn = false
	return unassigned, nil
}

// drop forgets the copies of codes that are still unassigned (a later round may have given
// one back), unless the machine rejoined since the drop was planned (gen).
func (s *copies) drop(gen uint64, codes []string) (dropped []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen {
		return nil
	}
	for _, code := range codes {
		if _, assigned := s.roles[code]; assigned {
			continue
		}
		if _, ok := s.data[code]; ok {
			delete(s.data, code)
			dropped = append(dropped, code)
		}
	}
	return dropped
}

// rejoin makes this machine a joiner again (after its session was lost): it claims no roles, and
// the copies it has stay readable until a round reassigns them. It offers its own sellers again
// only if it never completed a round (their file data is still what the alliance has).
func (s *copies) rejoin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roles = make(map[string]placement.Role)
	s.joining = true
	s.gen++
}

// served returns the sellers among want (all, when want is empty) this machine has data for.
func (s *copies) served(want []string) []*flight.Seller {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*flight.Seller
	if len(want) == 0 {
		for _, sel := range s.data {
			out = append(out, sel)
		}
	} else {
		for _, code := range want {
			if sel, ok := s.data[code]; ok {
				out = append(out, sel)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code() < out[j].Code() })
	return out
}

func (s *copies) isJoining() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.joining
}

// broughtCodes returns the codes of this machine's own sellers, sorted.
func (s *copies) broughtCodes() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.brought))
}
