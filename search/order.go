package search

import (
	"cmp"
	"fmt"
)

// Order is how a search sorts its trips (API.md, "sort"). Every order compares its own key
// first, then falls back on the price order (price, final arrival, flight numbers leg by leg, a
// direct trip before a connection that starts with the same flight, sellers leg by leg), then on
// the alliance: it is total, so a page is always the same window of the list. Within one
// alliance it is exactly the order of the airline's trip.Order.Compare, which is what lets the
// search server merge the top of each alliance's list into the top of the whole list.
type Order int

// The orders, by the name the sort parameter gives them.
const (
	ByPrice     Order = iota // the default
	ByDuration               // final arrival minus first departure
	ByDeparture              // first departure
	ByArrival                // final arrival
)

var orderNames = [...]string{ByPrice: "price", ByDuration: "duration", ByDeparture: "departure", ByArrival: "arrival"}

// ParseOrder reads an order's name as the sort parameter and getTrips's Sort give it.
func ParseOrder(s string) (Order, error) {
	for o, name := range orderNames {
		if s == name {
			return Order(o), nil
		}
	}
	return ByPrice, fmt.Errorf("%q is not an order (expected price, duration, departure or arrival)", clip(s))
}

// String is the order's name.
func (o Order) String() string {
	if o < 0 || int(o) >= len(orderNames) {
		return fmt.Sprintf("Order(%d)", int(o))
	}
	return orderNames[o]
}

// compare orders two validated trips by o's key, then by the price order, then by alliance
// (and, for answers that break the contract with two copies of one flight, by every remaining
// field, so that only identical trips compare equal and the answer's bytes never depend on the
// order in which delegates answered).
func (o Order) compare(a, b *trip) int {
	var c int
	switch o {
	case ByDuration:
		c = cmp.Compare(a.arrival.Sub(a.departure), b.arrival.Sub(b.departure))
	case ByDeparture:
		c = a.departure.Compare(b.departure)
	case ByArrival:
		c = a.arrival.Compare(b.arrival)
	}
	if c != 0 {
		return c
	}
	return comparePrice(a, b)
}

// comparePrice is the price order of API.md as the airline's trip.Compare has it, then the
// alliance, then the remaining fields.
func comparePrice(a, b *trip) int {
	if c := cmp.Compare(a.cents, b.cents); c != 0 {
		return c
	}
	if c := a.arrival.Compare(b.arrival); c != 0 {
		return c
	}
	al, bl := a.legs, b.legs
	n := min(len(al), len(bl))
	for i := range n {
		if c := cmp.Compare(al[i].w.Flight, bl[i].w.Flight); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(len(al), len(bl)); c != 0 {
		return c
	}
	for i := range al {
		if c := cmp.Compare(al[i].w.Seller, bl[i].w.Seller); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(a.alliance, b.alliance); c != 0 {
		return c
	}
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
