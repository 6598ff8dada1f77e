package contract

import (
	"cmp"
	"fmt"
	"time"
)

// Order is how a list of trips is sorted (docs/api.md, "sort"). Every order compares its own key
// first, then falls back on the price order (ComparePrice), so every order is total over
// distinct trips and a page of a list is always the same window of it. The airline sorts its
// list with it and the search server merges the alliances' lists with it: the top of each list
// merged is the top of the whole list only because both compare alike.
type Order int

// The orders, by the name the sort parameter and getTrips's Sort give them.
const (
	ByPrice     Order = iota // the default: the price order alone
	ByDuration               // final arrival minus first departure
	ByDeparture              // first departure
	ByArrival                // final arrival
)

var orderNames = [...]string{ByPrice: "price", ByDuration: "duration", ByDeparture: "departure", ByArrival: "arrival"}

// ParseOrder reads an order's name ("price", "duration", "departure" or "arrival"); anything
// else, "" included, is an error naming the text.
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

// Trip is what the orders read of a trip: each side's trip type (or a view of it) provides it.
type Trip interface {
	Price() Cents
	Departure() time.Time // of the first leg
	Arrival() time.Time   // of the last leg
	NumLegs() int
	Leg(i int) (flight, seller string) // the i-th leg's flight number and seller
}

// Compare orders trips a and b by o's key, then by the price order (ComparePrice). It returns
// -1, 0 or +1.
func Compare[T Trip](o Order, a, b T) int {
	var c int
	switch o {
	case ByDuration:
		c = cmp.Compare(a.Arrival().Sub(a.Departure()), b.Arrival().Sub(b.Departure()))
	case ByDeparture:
		c = a.Departure().Compare(b.Departure())
	case ByArrival:
		c = a.Arrival().Compare(b.Arrival())
	}
	if c != 0 {
		return c
	}
	return ComparePrice(a, b)
}

// ComparePrice is the price order of docs/api.md: by price, then by final arrival, then by the flight
// numbers leg by leg (a direct trip before a connection that starts with the same flight), then
// by the sellers leg by leg. A flight is identified by its seller and number, so the order is
// total over distinct trips. It returns -1, 0 or +1.
func ComparePrice[T Trip](a, b T) int {
	if c := cmp.Compare(a.Price(), b.Price()); c != 0 {
		return c
	}
	if c := a.Arrival().Compare(b.Arrival()); c != 0 {
		return c
	}
	na, nb := a.NumLegs(), b.NumLegs()
	for i := range min(na, nb) {
		fa, _ := a.Leg(i)
		fb, _ := b.Leg(i)
		if c := cmp.Compare(fa, fb); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	for i := range na {
		_, sa := a.Leg(i)
		_, sb := b.Leg(i)
		if c := cmp.Compare(sa, sb); c != 0 {
			return c
		}
	}
	return 0
}
