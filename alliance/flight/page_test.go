package flight

import (
	"errors"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A seller moved page by page arrives whole, at the same version, for any page size.
func TestPagedTransfer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		src := mustSeller(t, "LY", genFlights(t, "LY", 50))
		limit := rapid.IntRange(1, 60).Draw(t, "limit")
		dst := NewAssembler(src.Code(), src.Version())
		cursor, pages := "", 0
		for {
			page, next, err := src.Page(cursor, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) > limit || (next != "" && len(page) != limit) {
				t.Fatalf("page of %d flights for limit %d (next %q)", len(page), limit, next)
			}
			if err := dst.Add(page); err != nil {
				t.Fatal(err)
			}
			pages++
			if next == "" {
				break
			}
			cursor = next
		}
		if want := max(1, (src.Len()+limit-1)/limit); pages != want {
			t.Fatalf("%d pages for %d flights at %d a page; want %d", pages, src.Len(), limit, want)
		}
		got, err := dst.Seller()
		if err != nil {
			t.Fatal(err)
		}
		if got.Version() != src.Version() || !slices.Equal(got.Flights(), src.Flights()) {
			t.Fatal("the assembled seller differs from the source")
		}
	})
}

func TestPageRefusesBadCursors(t *testing.T) {
	flights := genFlightsN("LY", 5)
	s := mustSeller(t, "LY", flights)
	_, next, err := s.Page("", 2)
	if err != nil || next == "" {
		t.Fatalf("first page: next %q, %v", next, err)
	}
	for _, cursor := range []string{"x", "abc:2", s.Version() + ":", s.Version() + ":0", s.Version() + ":6",
		s.Version() + ":-1", s.Version() + ":+2", s.Version()} {
		if _, _, err := s.Page(cursor, 2); !errors.Is(err, ErrBadCursor) && !errors.Is(err, ErrStaleCursor) {
			t.Errorf("Page(%q) = %v; want a bad or stale cursor error", cursor, err)
		}
	}
	// The data changed between pages: the old cursor must not continue on the new version.
	flights[4].Seats++
	changed := mustSeller(t, "LY", flights)
	if _, _, err := changed.Page(next, 2); !errors.Is(err, ErrStaleCursor) {
		t.Errorf("continuing on changed data: %v; want ErrStaleCursor", err)
	}
	if _, _, err := s.Page("", 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Page with limit 0: %v; want ErrInvalid", err)
	}
}

func TestAssemblerRefuses(t *testing.T) {
	s := mustSeller(t, "LY", genFlightsN("LY", 4))
	all := s.Flights()

	missing := NewAssembler("LY", s.Version())
	if err := missing.Add(all[:3]); err != nil {
		t.Fatal(err)
	}
	if _, err := missing.Seller(); !errors.Is(err, ErrVersionMismatch) {
		t.Errorf("a missing flight: %v; want ErrVersionMismatch", err)
	}

	altered := NewAssembler("LY", s.Version())
	tampered := slices.Clone(all)
	tampered[2].Price++
	if err := altered.Add(tampered); err != nil {
		t.Fatal(err)
	}
	if _, err := altered.Seller(); !errors.Is(err, ErrVersionMismatch) {
		t.Errorf("an altered flight: %v; want ErrVersionMismatch", err)
	}

	repeated := NewAssembler("LY", s.Version())
	if err := repeated.Add(all[:2]); err != nil {
		t.Fatal(err)
	}
	if err := repeated.Add(all[:2]); !errors.Is(err, ErrInvalid) {
		t.Errorf("a repeated page: %v; want ErrInvalid", err)
	}

	if err := NewAssembler("UA", s.Version()).Add(all); !errors.Is(err, ErrInvalid) {
		t.Errorf("another seller's page: %v; want ErrInvalid", err)
	}
}

// genFlightsN is a fixed valid schedule of n flights for tests that need no randomness.
func genFlightsN(code string, n int) []Flight {
	out := make([]Flight, n)
	for i := range out {
		dep := testDay.Start().Add(timeHours(i))
		out[i] = Flight{Number: code + string(rune('A'+i)), Seller: code, Src: "TLV", Dst: "JFK",
			Departure: dep, Arrival: dep.Add(timeHours(11)), Price: Cents(10000 + i), Seats: 100}
	}
	return out
}
