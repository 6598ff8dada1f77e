package gather

import (
	"fmt"
	"slices"
	"testing"

	"flightalliance/alliance/flight"
)

// Joined lists given back (releaseJoined) are joined into again: each join holds exactly its
// sellers' flights, in want's order — none left over from a longer list before it — and the src
// and dst of one join never share an array, even when an array was given back twice.
func TestJoinedListsGivenBackHoldOnlyTheirFlights(t *testing.T) {
	flightsOf := func(seller, side string, n int) []flight.Flight {
		out := make([]flight.Flight, n)
		for i := range out {
			out[i] = flight.Flight{Seller: seller, Number: fmt.Sprintf("%s%d", side, i), Price: flight.Cents(i)}
		}
		return out
	}
	for round, n := range []int{300, 20, 0, 150, 299, 1, 300, 7} {
		lists := map[string]*sellerLists{
			"LY": {have: BothSides, src: flightsOf("LY", "S", n), dst: flightsOf("LY", "D", n/2)},
			"UA": {have: BothSides, src: flightsOf("UA", "S", n/3), dst: flightsOf("UA", "D", n)},
			"AF": {have: FromSrc, src: flightsOf("AF", "S", n)}, // one side only: missing
		}
		src, dst, missing := joinLists([]string{"UA", "AF", "LY"}, lists)
		wantSrc := slices.Concat(lists["UA"].src, lists["LY"].src)
		wantDst := slices.Concat(lists["UA"].dst, lists["LY"].dst)
		if !slices.Equal(src, wantSrc) || !slices.Equal(dst, wantDst) || !slices.Equal(missing, []string{"AF"}) {
			t.Fatalf("round %d (n %d): joined %d and %d flights, missing %v; want %d and %d, missing [AF]",
				round, n, len(src), len(dst), missing, len(wantSrc), len(wantDst))
		}
		if cap(src) > 0 && cap(dst) > 0 && &src[:1][0] == &dst[:1][0] {
			t.Fatalf("round %d: src and dst share an array", round)
		}
		releaseJoined(src, dst, src) // src twice: kept once
	}
}
