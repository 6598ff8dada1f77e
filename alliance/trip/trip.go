package trip

import (
	"slices"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/contract"
)

// Trip is one flight (direct) or two flights (one connection); Price is the sum of the legs.
type Trip struct {
	Legs  []flight.Flight
	Price flight.Cents
	// Refs number the legs among the distinct flights of the one Build or Cheapest that made the
	// trip: two legs of its trips are the same flight exactly when their refs are equal (what a
	// caller sending each distinct flight once needs, without hashing flights). Refs start at 1
	// and stay below Build's len(fromSrc)+len(toDst)+1; 0 is no ref: a leg past the trip's
	// legs, or a trip made otherwise.
	Refs [2]int32
}

// Arrival is when the trip's last flight arrives.
func (t Trip) Arrival() time.Time { return t.Legs[len(t.Legs)-1].Arrival }

// Compare orders trips as docs/api.md sorts them: by price, then by final arrival, then by the flight
// numbers leg by leg (a direct trip before a connection that starts with the same flight), then
// by the sellers leg by leg, which makes the order total over distinct trips, since a flight is
// identified by its seller and number (contract.ComparePrice). It returns -1, 0 or +1.
func Compare(a, b Trip) int {
	return contract.ComparePrice(orderView{a.Legs, a.Price}, orderView{b.Legs, b.Price})
}

// Less reports whether a sorts before b (see Compare).
func Less(a, b Trip) bool { return Compare(a, b) < 0 }

// Sort sorts trips in the order of docs/api.md.
func Sort(trips []Trip) { slices.SortFunc(trips, Compare) }
