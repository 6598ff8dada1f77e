package merge

import (
	"flightalliance/contract"
	"flightalliance/search/internal/searchtest"
)

// The fixtures shared with the search server's tests.
var (
	leg                = searchtest.Leg
	wireTrip           = searchtest.WireTrip
	flightPool         = searchtest.FlightPool
	randomAirlineTrips = searchtest.RandomAirlineTrips
	toWire             = searchtest.ToWire
)

// parseCents is contract.ParseCents in int64 cents, as the tests sum prices.
func parseCents(s string) (int64, error) {
	c, err := contract.ParseCents(s)
	return int64(c), err
}

// formatCents is contract.Cents.String.
func formatCents(c int64) string { return contract.Cents(c).String() }
