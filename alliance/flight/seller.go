package flight

import (
	"cmp"
	"fmt"
	"slices"
)

// Seller is the whole schedule of one seller, indexed for the two questions the alliance asks:
// which flights leave airport A on day D, and which flights that leave on day D arrive at A.
// It is immutable after NewSeller, so any number of goroutines may read it; a change to the data
// is a new Seller with a new Version.
type Seller struct {
	code    string
	version string
	flights []Flight           // canonical order: by Number
	bySrc   map[dayKey][]int32 // (src, departure date) -> indexes into flights
	byDst   map[dayKey][]int32 // (dst, departure date) -> indexes into flights
}

// dayKey is an airport on a UTC day. Both indexes are keyed by the departure date, because a
// trip is defined by the day its flights depart.
type dayKey struct {
	airport string
	date    Date
}

// NewSeller validates flights (each one as Flight.Validate does, every Seller equal to code,
// flight numbers unique) and indexes them. It keeps its own copy, with times in UTC; the caller
// may reuse the slice.
func NewSeller(code string, flights []Flight) (*Seller, error) {
	if err := CheckSeller(code); err != nil {
		return nil, fmt.Errorf("new seller: %w", err)
	}
	own := make([]Flight, len(flights))
	for i, f := range flights {
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("seller %s: flight %q: %w", code, f.Number, err)
		}
		if f.Seller != code {
			return nil, fmt.Errorf("seller %s: flight %s: %w", code, f.Number,
				fieldErrorf("seller", "%s is not the seller being built", f.Seller))
		}
		f.Departure, f.Arrival = f.Departure.UTC(), f.Arrival.UTC()
		own[i] = f
	}
	slices.SortFunc(own, func(a, b Flight) int { return cmp.Compare(a.Number, b.Number) })
	for i := 1; i < len(own); i++ {
		if own[i].Number == own[i-1].Number {
			return nil, fmt.Errorf("seller %s: %w", code,
				fieldErrorf("flight", "%s appears twice", own[i].Number))
		}
	}
	s := &Seller{code: code, flights: own, version: versionOf(code, own)}
	s.bySrc, s.byDst = s.index()
	return s, nil
}

func (s *Seller) index() (bySrc, byDst map[dayKey][]int32) {
	bySrc, byDst = make(map[dayKey][]int32), make(map[dayKey][]int32)
	for i, f := range s.flights {
		d := DateOf(f.Departure)
		src, dst := dayKey{f.Src, d}, dayKey{f.Dst, d}
		bySrc[src] = append(bySrc[src], int32(i))
		byDst[dst] = append(byDst[dst], int32(i))
	}
	byTime := func(a, b int32) int {
		if c := s.flights[a].Departure.Compare(s.flights[b].Departure); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // indexes follow flight numbers
	}
	for _, idx := range bySrc {
		slices.SortFunc(idx, byTime)
	}
	for _, idx := range byDst {
		slices.SortFunc(idx, byTime)
	}
	return bySrc, byDst
}

// Code is the seller code.
func (s *Seller) Code() string { return s.code }

// Version names the content: a truncated SHA-256 of the canonical (sorted) flights. Two Sellers
// have the same Version exactly when they hold the same flights, whatever order they were built
// from; any change (a time, a price, a seat count) changes it.
func (s *Seller) Version() string { return s.version }

// Len is the number of flights.
func (s *Seller) Len() int { return len(s.flights) }

// BySrc returns the flights that depart from src on UTC day d, by departure time then flight
// number. The slice is the caller's.
func (s *Seller) BySrc(src string, d Date) []Flight { return s.pick(s.bySrc[dayKey{src, d}]) }

// ByDst returns the flights that depart on UTC day d and arrive at dst, by departure time then
// flight number. The slice is the caller's.
func (s *Seller) ByDst(dst string, d Date) []Flight { return s.pick(s.byDst[dayKey{dst, d}]) }

// Flight returns the flight numbered number, if the seller has it.
func (s *Seller) Flight(number string) (Flight, bool) {
	i, ok := slices.BinarySearchFunc(s.flights, number, func(f Flight, n string) int { return cmp.Compare(f.Number, n) })
	if !ok {
		return Flight{}, false
	}
	return s.flights[i], true
}

// Flights returns every flight in canonical order (by flight number). The slice is the caller's.
func (s *Seller) Flights() []Flight { return slices.Clone(s.flights) }

func (s *Seller) pick(idx []int32) []Flight {
	if len(idx) == 0 {
		return nil
	}
	out := make([]Flight, len(idx))
	for i, j := range idx {
		out[i] = s.flights[j]
	}
	return out
}
