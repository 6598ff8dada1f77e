package trip

import (
	"cmp"
	"container/heap"
	"math"
	"slices"

	"flightalliance/alliance/flight"
)

// Cheapest returns the first k trips of Build(q, fromSrc, toDst) — the same trips in the same
// order — and how many trips Build returns in all, without making the others: a search's first
// page of a list of thousands costs the join's reading of its inputs and the k trips, not the
// whole list and its sort.
//
// It keeps the k least trips met so far (by Compare) and reads the connections cheapest second
// leg first, and each second leg's first legs cheapest first, stopping when the price alone puts
// a trip after the k-th kept: a trip skipped that way costs more than one already kept, and the
// k-th kept only ever gets cheaper, so no skipped trip belongs in the answer. The count adds, per
// second leg, the first legs it can follow, which the join finds with one binary search anyway.
// k ≤ 0 returns no trips, only the count.
func Cheapest(q Query, fromSrc, toDst []flight.Flight, k int) (trips []Trip, total int) {
	if q.Src == q.Dst {
		return nil, 0
	}
	in := prepare(q, fromSrc, toDst)
	total = len(in.directs)
	for _, j := range in.seconds {
		total += len(in.firstsBefore(&in.second[j]))
	}
	if k <= 0 {
		return nil, total
	}
	best := &kept{k: k}
	for _, d := range in.directs {
		f := in.direct(d)
		best.offer(Trip{Legs: []flight.Flight{*f}, Price: f.Price, Refs: [2]int32{in.ref(d)}})
	}
	// Each connecting airport's first legs by price, with the cheapest over all of them.
	byPrice := make(map[string][]int32, len(in.byVia))
	var cheapestFirst flight.Cents
	var keys []uint64
	for via, firsts := range in.byVia {
		var sorted []int32
		sorted, keys = priceOrder(firsts, fromSrc, keys)
		byPrice[via] = sorted
		if p := fromSrc[sorted[0]].Price; len(byPrice) == 1 || p < cheapestFirst {
			cheapestFirst = p
		}
	}
	seconds, _ := priceOrder(in.seconds, toDst, keys)
	for _, j := range seconds {
		f2 := &toDst[j]
		if len(byPrice) == 0 || best.beyond(cheapestFirst+f2.Price) {
			break // no first legs; or every later second leg costs at least as much
		}
		latest := f2.Departure.Add(-in.minConn)
		for _, i := range byPrice[f2.Src] {
			f1 := &fromSrc[i]
			if best.beyond(f1.Price + f2.Price) {
				break
			}
			if !f1.Arrival.After(latest) {
				best.offer(Trip{Legs: []flight.Flight{*f1, *f2}, Price: f1.Price + f2.Price, Refs: in.refs(i, j)})
			}
		}
	}
	trips = best.trips
	Sort(trips)
	return trips, total
}

// kept is the k least trips offered so far, as a heap whose root is the greatest of them.
type kept struct {
	k     int
	trips []Trip
}

// beyond reports whether a trip of this price sorts after every trip kept when k are kept (and
// so can never be among the k least).
func (h *kept) beyond(price flight.Cents) bool {
	return len(h.trips) == h.k && price > h.trips[0].Price
}

// offer keeps t if it is among the k least so far.
func (h *kept) offer(t Trip) {
	if len(h.trips) < h.k {
		heap.Push(h, t)
		return
	}
	if Compare(t, h.trips[0]) < 0 {
		h.trips[0] = t
		heap.Fix(h, 0)
	}
}

func (h *kept) Len() int           { return len(h.trips) }
func (h *kept) Less(i, j int) bool { return Compare(h.trips[i], h.trips[j]) > 0 }
func (h *kept) Swap(i, j int)      { h.trips[i], h.trips[j] = h.trips[j], h.trips[i] }
func (h *kept) Push(x any)         { h.trips = append(h.trips, x.(Trip)) }
func (h *kept) Pop() any {
	t := h.trips[len(h.trips)-1]
	h.trips = h.trips[:len(h.trips)-1]
	return t
}

// priceOrder returns a copy of the positions in flights listed by price, cheapest first (equal
// prices by position). Each price and position are sorted as one word; a price that does not
// fit in 32 bits (over 4.29 billion cents, which no flight costs) or a negative one (which
// flight.ParseCents refuses) sends the whole list to a sort comparing the flights, in the same
// order. keys is scratch space, returned for reuse.
func priceOrder(positions []int32, flights []flight.Flight, keys []uint64) ([]int32, []uint64) {
	sorted := slices.Clone(positions)
	keys = keys[:0]
	for _, i := range positions {
		p := flights[i].Price
		if p < 0 || p > math.MaxUint32 {
			slices.SortFunc(sorted, func(a, b int32) int {
				return cmp.Or(cmp.Compare(flights[a].Price, flights[b].Price), cmp.Compare(a, b))
			})
			return sorted, keys
		}
		keys = append(keys, uint64(p)<<32|uint64(uint32(i)))
	}
	slices.Sort(keys)
	for n, k := range keys {
		sorted[n] = int32(uint32(k))
	}
	return sorted, keys
}
