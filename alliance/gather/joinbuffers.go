package gather

import (
	"slices"
	"sync"
	"unsafe"

	"flightalliance/alliance/flight"
)

// The lists a search joins (joinLists) are read by the join and dead once it has made its trips:
// trip.Build and trip.Cheapest copy the flights they keep, and the flight cache keeps each
// seller's own lists, never the joined ones. So their arrays are kept for the next search rather
// than left to the collector. A cold search joins about 1,200 flights a side, 128 bytes each: a
// fifth of what a delegate allocated per cold search, and each collection it saves is a stall
// saved for every search under way (README, "Speed under load").
var joinedArrays = sync.Pool{New: func() any { return new([]flight.Flight) }}

// maxPooledJoin is the largest list kept for reuse (flights); larger ones are left to the
// collector.
const maxPooledJoin = 64 << 10

// joinedList is an empty list with room for n flights: a kept one when it is large enough.
func joinedList(n int) []flight.Flight {
	if p := joinedArrays.Get().(*[]flight.Flight); cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]flight.Flight, 0, n)
}

// releaseJoined keeps the arrays of lists joinLists made, for later searches: the caller reads
// them no more.
func releaseJoined(lists ...[]flight.Flight) {
	for i, l := range lists {
		if cap(l) == 0 || cap(l) > maxPooledJoin || slices.ContainsFunc(lists[:i], func(e []flight.Flight) bool {
			return cap(e) > 0 && unsafe.SliceData(e) == unsafe.SliceData(l)
		}) {
			continue // an array given twice is kept once: two searches must never share one
		}
		l = l[:cap(l)]
		clear(l) // the kept array holds no strings alive
		joinedArrays.Put(&l)
	}
}
