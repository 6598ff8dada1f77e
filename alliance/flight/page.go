package flight

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Page returns up to limit flights in canonical order, starting where cursor points: "" is the
// first page, and each call returns the cursor of the next page, "" after the last one. A cursor
// names the Version it was issued for; continuing it on other data fails with ErrStaleCursor,
// so a transfer never mixes two versions. A cursor this seller cannot read fails with
// ErrBadCursor. Together with Assembler this moves a seller of any size in bounded pieces.
func (s *Seller) Page(cursor string, limit int) (flights []Flight, next string, err error) {
	if limit <= 0 {
		return nil, "", fmt.Errorf("page of seller %s: %w", s.code,
			fieldErrorf("limit", "%d is not a positive page size", limit))
	}
	start := 0
	if cursor != "" {
		version, offset, ok := strings.Cut(cursor, ":")
		n, convErr := strconv.Atoi(offset)
		switch {
		case !ok || convErr != nil || n <= 0 || n > len(s.flights) || !allDigits(offset):
			return nil, "", fmt.Errorf("page of seller %s: cursor %q: %w", s.code, cursor, ErrBadCursor)
		case version != s.version:
			return nil, "", fmt.Errorf("page of seller %s: cursor %q is for version %s, data is version %s: %w",
				s.code, cursor, version, s.version, ErrStaleCursor)
		}
		start = n
	}
	end := start + min(limit, len(s.flights)-start)
	flights = append([]Flight(nil), s.flights[start:end]...)
	if end < len(s.flights) {
		next = s.version + ":" + strconv.Itoa(end)
	}
	return flights, next, nil
}

// Assembler rebuilds a Seller from the pages of Page, on the receiving side of a transfer, and
// verifies that what arrived is exactly the announced version. It is not safe for concurrent use.
type Assembler struct {
	code, version string
	flights       []Flight
}

// NewAssembler starts receiving seller code, announced at version.
func NewAssembler(code, version string) *Assembler {
	return &Assembler{code: code, version: version}
}

// Add appends the next page. Pages must arrive in order: a flight of another seller, or a flight
// number not after the previous one (a repeated or reordered page), is refused.
func (a *Assembler) Add(page []Flight) error {
	for _, f := range page {
		if f.Seller != a.code {
			return fmt.Errorf("assemble seller %s: flight %s: %w", a.code, f.Number,
				fieldErrorf("seller", "%s is not the seller being assembled", f.Seller))
		}
		if n := len(a.flights); n > 0 && cmp.Compare(f.Number, a.flights[n-1].Number) <= 0 {
			return fmt.Errorf("assemble seller %s: %w", a.code,
				fieldErrorf("flight", "%s arrived after %s: pages out of order or repeated", f.Number, a.flights[n-1].Number))
		}
		a.flights = append(a.flights, f)
	}
	return nil
}

// Seller builds the Seller from the pages added so far and checks that its Version is the one
// announced; a missing, extra or altered flight gives ErrVersionMismatch.
func (a *Assembler) Seller() (*Seller, error) {
	s, err := NewSeller(a.code, a.flights)
	if err != nil {
		return nil, fmt.Errorf("assemble: %w", err)
	}
	if s.version != a.version {
		return nil, fmt.Errorf("assemble seller %s: %d flights hash to version %s, announced %s: %w",
			a.code, len(a.flights), s.version, a.version, ErrVersionMismatch)
	}
	return s, nil
}
