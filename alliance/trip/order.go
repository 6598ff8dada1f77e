package trip

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"flightalliance/alliance/flight"
)

// Order is how a list of trips is sorted (API.md, "sort"): each order compares its own key
// first, then falls back on the price order of Compare, so every order is total and a page of a
// list is always the same window.
type Order int

const (
	ByPrice     Order = iota // price, then arrival, then flight numbers (Compare)
	ByDuration               // final arrival minus first departure
	ByDeparture              // first departure
	ByArrival                // final arrival
)

var orderNames = [...]string{ByPrice: "price", ByDuration: "duration", ByDeparture: "departure", ByArrival: "arrival"}

// ParseOrder reads an order's name; "" is ByPrice.
func ParseOrder(s string) (Order, error) {
	if s == "" {
		return ByPrice, nil
	}
	for o, name := range orderNames {
		if s == name {
			return Order(o), nil
		}
	}
	return ByPrice, fmt.Errorf("%q is not an order: want price, duration, departure or arrival", s)
}

func (o Order) String() string {
	if o < 0 || int(o) >= len(orderNames) {
		return fmt.Sprintf("Order(%d)", int(o))
	}
	return orderNames[o]
}

// Duration is the time from the trip's first departure to its final arrival.
func (t Trip) Duration() time.Duration { return t.Arrival().Sub(t.Legs[0].Departure) }

// Compare orders two trips by o's key, then as Compare does.
func (o Order) Compare(a, b Trip) int {
	var c int
	switch o {
	case ByDuration:
		c = cmp.Compare(a.Duration(), b.Duration())
	case ByDeparture:
		c = a.Legs[0].Departure.Compare(b.Legs[0].Departure)
	case ByArrival:
		c = a.Arrival().Compare(b.Arrival())
	}
	if c != 0 {
		return c
	}
	return Compare(a, b)
}

// Filter keeps the trips a search's controls ask for: Nonstop keeps direct trips only; a
// MaxPrice keeps trips that cost at most that (HasMaxPrice says whether one was given).
type Filter struct {
	Nonstop     bool
	MaxPrice    flight.Cents
	HasMaxPrice bool
}

// Keep reports whether t passes the filter.
func (f Filter) Keep(t Trip) bool {
	return (!f.Nonstop || len(t.Legs) == 1) && (!f.HasMaxPrice || t.Price <= f.MaxPrice)
}

// Select returns the first max trips (all when max <= 0) of the trips f keeps, in order o, and
// how many it keeps in all. sorted must be in the price order (as Build returns it); it is not
// changed.
func Select(sorted []Trip, f Filter, o Order, max int) (page []Trip, total int) {
	kept := sorted
	if f != (Filter{}) {
		kept = make([]Trip, 0, len(sorted))
		for _, t := range sorted {
			if f.Keep(t) {
				kept = append(kept, t)
			}
		}
	}
	total = len(kept)
	if o != ByPrice {
		if len(kept) > 0 && &kept[0] == &sorted[0] {
			kept = slices.Clone(kept)
		}
		slices.SortFunc(kept, o.Compare)
	}
	if max > 0 && max < len(kept) {
		kept = kept[:max]
	}
	return kept, total
}
