package soap

import (
	"slices"
	"sync"
	"unsafe"
)

// flightArrays keeps the arrays of decoded flight lists their readers gave back (ReleaseFlights).
// A delegate decodes a few hundred flights a side from every holder it asks, for every search
// that gathers, and reads them once (converting them into its own flights): kept, their arrays
// are not a quarter of what it allocates per search.
var flightArrays = sync.Pool{New: func() any { return new([]Flight) }}

// newFlightList is a list of the flight first, with room for n: a given-back array when one
// large enough comes to hand.
func newFlightList(first Flight, n int) []Flight {
	list := *flightArrays.Get().(*[]Flight)
	if cap(list) < n {
		list = make([]Flight, 0, n)
	}
	return append(list[:0], first)
}

// ReleaseFlights gives back the arrays of flight lists this package decoded — the Flights,
// FromSrc and ToDst of a response — for later answers to reuse. The caller, and whatever it
// handed them to, reads them no more (their strings may be kept: they are not in the arrays).
// Giving them back is optional.
func ReleaseFlights(lists ...[]Flight) {
	for i, l := range lists {
		if cap(l) == 0 || cap(l) > maxFlightsGuess || slices.ContainsFunc(lists[:i], func(e []Flight) bool { return sameArray(e, l) }) {
			continue // an array given twice is kept once: two answers must never share one
		}
		l = l[:cap(l)]
		clear(l) // a kept array holds no strings alive
		flightArrays.Put(&l)
	}
}

// sameArray reports whether a and b are slices of one array (from its start).
func sameArray(a, b []Flight) bool {
	return cap(a) > 0 && cap(b) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}
