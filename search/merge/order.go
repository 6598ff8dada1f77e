package merge

import (
	"cmp"
	"time"

	"flightalliance/contract"
)

// compare orders two validated trips as a search's order o sorts them: by the contract's
// comparison (o's key, then the price order: price, final arrival, flight numbers leg by leg, a
// direct trip before a connection that starts with the same flight, sellers leg by leg), then by
// alliance (and, for answers that break the contract with two copies of one flight, by every
// remaining field, so that only identical trips compare equal and the answer's bytes never
// depend on the order in which delegates answered). It is total, so a page is always the same
// window of the list. Within one alliance it is exactly the airline's trip.Order.Compare, the
// same contract.Compare: that is what lets Merge merge the top of each alliance's list into the
// top of the whole list.
func compare(o contract.Order, a, b *trip) int {
	if c := contract.Compare(o, a, b); c != 0 {
		return c
	}
	return compareRest(a, b)
}

// comparePrice is the price order of docs/api.md as the airline's trip.Compare has it, then the
// alliance, then the remaining fields.
func comparePrice(a, b *trip) int {
	if c := contract.ComparePrice(a, b); c != 0 {
		return c
	}
	return compareRest(a, b)
}

// compareRest breaks the ties of the contract's comparison: by alliance, then by every remaining
// field of the legs.
func compareRest(a, b *trip) int {
	if c := cmp.Compare(a.alliance, b.alliance); c != 0 {
		return c
	}
	al, bl := a.legs, b.legs
	for i := range al {
		x, y := al[i].w, bl[i].w
		if c := cmp.Or(
			cmp.Compare(x.Src, y.Src),
			cmp.Compare(x.Dst, y.Dst),
			cmp.Compare(x.Departure, y.Departure),
			cmp.Compare(x.Arrival, y.Arrival),
			cmp.Compare(x.Price, y.Price),
			cmp.Compare(x.Seats, y.Seats),
		); c != 0 {
			return c
		}
	}
	return 0
}

// The trip as the contract's orders read it.

func (t *trip) Price() contract.Cents      { return t.cents }
func (t *trip) Departure() time.Time       { return t.departure }
func (t *trip) Arrival() time.Time         { return t.arrival }
func (t *trip) NumLegs() int               { return len(t.legs) }
func (t *trip) Leg(i int) (string, string) { return t.legs[i].w.Flight, t.legs[i].w.Seller }
