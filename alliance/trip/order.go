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
	idx, total := SelectIndex(sorted, f, o, max)
	if idx == nil {
		return sorted[:min(len(sorted), pageLen(len(sorted), max))], total
	}
	page = make([]Trip, len(idx))
	for i, k := range idx {
		page[i] = sorted[k]
	}
	return page, total
}

// SelectIndex is Select by position: the page is sorted[idx[0]], sorted[idx[1]], ... — or, when
// idx is nil (no filter, the price order), the first max trips of sorted as they are.
func SelectIndex(sorted []Trip, f Filter, o Order, max int) (idx []int, total int) {
	if f == (Filter{}) && o == ByPrice {
		return nil, len(sorted)
	}
	idx = make([]int, 0, len(sorted))
	for i, t := range sorted {
		if f.Keep(t) {
			idx = append(idx, i)
		}
	}
	total = len(idx)
	if o != ByPrice {
		slices.SortFunc(idx, func(a, b int) int { return o.Compare(sorted[a], sorted[b]) })
	}
	return idx[:pageLen(len(idx), max)], total
}

// pageLen is how many of n trips a page of at most max (all when max <= 0) holds.
func pageLen(n, max int) int {
	if max > 0 && max < n {
		return max
	}
	return n
}
