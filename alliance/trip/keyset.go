package trip

import "flightalliance/alliance/flight"

// keySet is a set of flight identities (seller and number). Valid codes are short — a seller 2 to
// 8 characters, a number 1 to 16 — so a key is packed with its lengths into 26 bytes, hashed
// and compared as one word-sized block rather than as two strings: the join asks the set once per
// flight it reads, thousands a search. Longer codes (never valid, but Build takes any input) go
// to a map of keys.
type keySet struct {
	packed map[packedKey]struct{}
	long   map[flight.Key]struct{}
}

// packedKey is len(Number), Number, len(Seller), Seller, zero-padded: distinct keys never pack
// alike, since the lengths say where each code ends.
type packedKey [1 + 16 + 1 + 8]byte

func newKeySet(size int) keySet { return keySet{packed: make(map[packedKey]struct{}, size)} }

// add adds k and reports whether it was not in the set yet.
func (s *keySet) add(k flight.Key) bool {
	if p, ok := pack(k); ok {
		if _, in := s.packed[p]; in {
			return false
		}
		s.packed[p] = struct{}{}
		return true
	}
	if s.long == nil {
		s.long = map[flight.Key]struct{}{}
	}
	if _, in := s.long[k]; in {
		return false
	}
	s.long[k] = struct{}{}
	return true
}

// has reports whether k is in the set.
func (s *keySet) has(k flight.Key) bool {
	if p, ok := pack(k); ok {
		_, in := s.packed[p]
		return in
	}
	_, in := s.long[k]
	return in
}

func pack(k flight.Key) (p packedKey, ok bool) {
	if len(k.Number) > 16 || len(k.Seller) > 8 {
		return p, false
	}
	p[0] = byte(len(k.Number))
	copy(p[1:17], k.Number)
	p[17] = byte(len(k.Seller))
	copy(p[18:], k.Seller)
	return p, true
}
