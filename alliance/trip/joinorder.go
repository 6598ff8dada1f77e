package trip

import (
	"math/bits"
	"slices"
)

// order returns the positions in found in the order in.compare sorts them (the order of
// Compare).
//
// Most trips differ in price or in the second they arrive, and comparing those is all a sort
// needs for them; but a sort through a comparison function pays a call per comparison, and sorting
// a whole list was a fifth of a delegate's CPU under load. So each trip becomes one word: its
// price less the cheapest, above its arrival less the earliest, above its position. When the three
// fit in 64 bits together (for a day's flights: 18 bits of arrival and 12–16 of position leave
// 30 or more for the spread of prices, ten million dollars), the words are sorted as integers,
// and then each run of words alike but for the position (trips tied on price and arrival second)
// is sorted by in.compare. Otherwise every trip is sorted by in.compare.
func (in *joinInput) order(found []joined) []uint64 {
	positions := make([]uint64, len(found))
	if len(found) == 0 {
		return positions
	}
	low, high := found[0], found[0]
	for _, t := range found[1:] {
		low.price, high.price = min(low.price, t.price), max(high.price, t.price)
		low.arrives, high.arrives = min(low.arrives, t.arrives), max(high.arrives, t.arrives)
	}
	// Differences of int64s taken as uint64s: exact, whatever the signs.
	priceBits := bits.Len64(uint64(high.price) - uint64(low.price))
	arrivalBits := bits.Len64(uint64(high.arrives) - uint64(low.arrives))
	positionBits := bits.Len64(uint64(len(found) - 1))
	byTrip := func(a, b uint64) int { return in.compare(found[a], found[b]) }
	if priceBits+arrivalBits+positionBits > 64 {
		for i := range positions {
			positions[i] = uint64(i)
		}
		slices.SortFunc(positions, byTrip)
		return positions
	}
	for i, t := range found {
		price := uint64(t.price) - uint64(low.price)
		arrival := uint64(t.arrives) - uint64(low.arrives)
		positions[i] = price<<(arrivalBits+positionBits) | arrival<<positionBits | uint64(i)
	}
	slices.Sort(positions)
	for i := 0; i < len(positions); {
		j := i + 1
		for j < len(positions) && positions[j]>>positionBits == positions[i]>>positionBits {
			j++
		}
		for k := i; k < j; k++ {
			positions[k] &= 1<<positionBits - 1
		}
		if j-i > 1 {
			slices.SortFunc(positions[i:j], byTrip)
		}
		i = j
	}
	return positions
}
