package trip

import (
	"strings"
	"testing"

	"flightalliance/alliance/flight"
)

// A keySet tells apart keys whose codes run together ("AB"+"C" and "A"+"BC"), empty codes, and
// codes too long to pack, and finds each again.
func TestKeySetTellsKeysApart(t *testing.T) {
	keys := []flight.Key{
		{Seller: "C", Number: "AB"}, {Seller: "BC", Number: "A"}, {Seller: "", Number: ""}, {Seller: "LY", Number: ""},
		{Seller: "", Number: "LY"}, {Seller: "LY", Number: "LY001"}, {Seller: "LY", Number: "LY001\x00"},
		{Seller: strings.Repeat("S", 9), Number: "1"}, {Seller: "S", Number: strings.Repeat("9", 17)},
		{Seller: strings.Repeat("S", 8), Number: strings.Repeat("9", 16)},
	}
	s := newKeySet(0)
	for i, k := range keys {
		for _, earlier := range keys[:i] {
			if !s.has(earlier) {
				t.Errorf("%+v lost after adding %d keys", earlier, i)
			}
		}
		if s.has(k) || !s.add(k) {
			t.Errorf("%+v found before it was added", k)
		}
		if s.add(k) || !s.has(k) {
			t.Errorf("%+v added twice, or not found once added", k)
		}
	}
}
