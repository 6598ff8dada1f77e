package trip

import (
	"slices"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/contract"
)

// Order is how a list of trips is sorted (docs/api.md, "sort"): the contract's orders
// (contract.Order), which the search server merges the alliances' lists by. Each order compares
// its own key first, then falls back on the price order of Compare, so every order is total and
// a page of a list is always the same window.
type Order contract.Order

// The orders, as the contract names them.
const (
	ByPrice     = Order(contract.ByPrice)     // price, then arrival, then flight numbers (Compare)
	ByDuration  = Order(contract.ByDuration)  // final arrival minus first departure
	ByDeparture = Order(contract.ByDeparture) // first departure
	ByArrival   = Order(contract.ByArrival)   // final arrival
)

// ParseOrder reads an order's name (contract.ParseOrder); "" is ByPrice, as getTrips's Sort
// omitted.
func ParseOrder(s string) (Order, error) {
	if s == "" {
		return ByPrice, nil
	}
	o, err := contract.ParseOrder(s)
	return Order(o), err
}

func (o Order) String() string { return contract.Order(o).String() }

// Duration is the time from the trip's first departure to its final arrival.
func (t Trip) Duration() time.Duration { return t.Arrival().Sub(t.Legs[0].Departure) }

// Compare orders two trips by o's key, then as Compare does (contract.Compare).
func (o Order) Compare(a, b Trip) int {
	return contract.Compare(contract.Order(o), orderView{a.Legs, a.Price}, orderView{b.Legs, b.Price})
}

// orderView is a trip as the contract's orders read it.
type orderView struct {
	legs  []flight.Flight
	price flight.Cents
}

func (v orderView) Price() contract.Cents      { return v.price }
func (v orderView) Departure() time.Time       { return v.legs[0].Departure }
func (v orderView) Arrival() time.Time         { return v.legs[len(v.legs)-1].Arrival }
func (v orderView) NumLegs() int               { return len(v.legs) }
func (v orderView) Leg(i int) (string, string) { return v.legs[i].Number, v.legs[i].Seller }

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
