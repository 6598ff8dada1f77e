package main

import (
	"testing"

	"flightalliance/alliance/flight"
)

// Every alliance `up` can start gets seller codes of its own: distinct across alliances, valid,
// short (two characters while they last, like real airline designators).
func TestSellerCodesAreDistinctValidAndShort(t *testing.T) {
	seen := map[string][2]int{}
	for i := range maxAlliances {
		for j := range 1000 { // 50 machines × 20 sellers, up's largest alliance
			c := sellerCode(i, j, maxAlliances)
			if !flight.ValidSeller(c) || len(c) > 3 {
				t.Fatalf("sellerCode(%d, %d) = %q: not a short valid seller code", i, j, c)
			}
			if at, dup := seen[c]; dup {
				t.Fatalf("sellerCode(%d, %d) = %q, already given to (%d, %d)", i, j, c, at[0], at[1])
			}
			seen[c] = [2]int{i, j}
		}
	}
	if c := sellerCode(0, 199, 1); len(c) != 2 {
		t.Errorf("the 200th seller of a single alliance is %q; want a two-character code", c)
	}
	if sellerCode(0, 0, 2) != "LY" || sellerCode(1, 0, 2) != "BA" {
		t.Errorf("the pools come first: %q, %q", sellerCode(0, 0, 2), sellerCode(1, 0, 2))
	}
}
