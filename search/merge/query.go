package merge

import (
	"math"

	"flightalliance/contract"
)

// Query is a validated search (the search server's ParseQuery makes it): IATA airports, an ISO
// date, an optional seller filter, and the optional paging and controls of docs/api.md.
type Query struct {
	Src     string
	Dst     string
	Date    string
	Sellers []string // nil: every seller

	Limit       int            // the page's size; 0: the whole list from Offset
	Offset      int            // trips of the whole list before the page
	Nonstop     bool           // direct trips only
	MaxPrice    contract.Cents // trips that cost at most this, when HasMaxPrice
	HasMaxPrice bool
	Sort        contract.Order
}

// keeps reports whether a trip passes the query's nonstop and max_price controls.
func (q Query) keeps(t *trip) bool {
	return (!q.Nonstop || len(t.legs) == 1) && (!q.HasMaxPrice || t.cents <= q.MaxPrice)
}

// Wanted is how many trips of the top of its list each alliance is asked for: the whole list
// when there is no limit (0), else every trip up to the end of the page (getTrips's MaxTrips is
// an xsd:int).
func (q Query) Wanted() int {
	if q.Limit == 0 {
		return 0
	}
	return int(min(int64(q.Offset)+int64(q.Limit), math.MaxInt32))
}

// Echo is the query as the answer repeats it.
func (q Query) Echo() QueryEcho {
	e := QueryEcho{Src: q.Src, Dst: q.Dst, Date: q.Date, Servers: q.Sellers,
		Limit: q.Limit, Offset: q.Offset, Nonstop: q.Nonstop}
	if q.HasMaxPrice {
		e.MaxPrice = q.MaxPrice.String()
	}
	if q.Sort != contract.ByPrice {
		e.Sort = q.Sort.String()
	}
	return e
}
