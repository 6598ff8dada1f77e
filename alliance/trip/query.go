package trip

import (
	"slices"
	"time"

	"flightalliance/alliance/flight"
)

// DefaultMinConnection is the shortest time between the arrival of a connection's first flight
// and the departure of its second when Query.MinConnection is not set (docs/api.md).
const DefaultMinConnection = 30 * time.Minute

// Query is what a search asks an alliance.
type Query struct {
	Src, Dst string      // IATA codes
	Date     flight.Date // every flight of a trip departs on this UTC day
	// Sellers, when not empty, restricts every flight of every trip to these sellers.
	Sellers []string
	// MinConnection is the shortest allowed connection; zero or less means DefaultMinConnection.
	MinConnection time.Duration
}

// minConnection is the effective minimum connection time.
func (q Query) minConnection() time.Duration {
	if q.MinConnection <= 0 {
		return DefaultMinConnection
	}
	return q.MinConnection
}

// sellerFilter reports whether a seller passes the query's filter. Filters are a handful of
// codes, so a linear scan beats building a set.
func (q Query) sellerFilter() func(seller string) bool {
	if len(q.Sellers) == 0 {
		return func(string) bool { return true }
	}
	return func(seller string) bool { return slices.Contains(q.Sellers, seller) }
}
