package search

import (
	"flightalliance/contract"
	"flightalliance/search/booking"
	"flightalliance/search/console"
	"flightalliance/search/internal/rest"
	"flightalliance/search/merge"
	"flightalliance/search/registry"
)

// This file names, for the server's clients (the flights command, the tests of whole systems),
// the types of the server's API that its packages by concern define, so that a client imports
// search alone.

// The answer of a search is merge's (the package that makes it); the search server's clients
// read it as search.Answer and the rest, as they read every other type of the server's API here.
type (
	Answer         = merge.Answer
	QueryEcho      = merge.QueryEcho
	Trip           = merge.Trip
	Leg            = merge.Leg
	AllianceStatus = merge.AllianceStatus
	// Query is a validated search, as ParseQuery makes it.
	Query = merge.Query
	// Order is how a search sorts its trips (the sort parameter): the contract's orders.
	Order = contract.Order
)

// ErrorBody is the JSON body of every 4xx/5xx answer.
type ErrorBody = rest.ErrorBody

// InputError names the parameter or field of a client's input that is wrong and why; every one
// matches ErrInvalidInput, which the HTTP layer answers 400 to.
type InputError = rest.InputError

// ErrInvalidInput is wrapped by every error about bad input from a client.
var ErrInvalidInput = rest.ErrInvalidInput

// The registrations of the alliances' delegates are the registry's (package registry).
type (
	Registry     = registry.Registry
	Registration = registry.Registration
	Fallback     = registry.Fallback
)

// ParseOrder reads an order's name as the sort parameter gives it (contract.ParseOrder).
func ParseOrder(s string) (Order, error) { return contract.ParseOrder(s) }

// The web console's live picture (GET /Services/FlightsSearch/alliances) is the console's.
type (
	LivePicture  = console.LivePicture
	AllianceLive = console.AllianceLive
	LiveMachine  = console.LiveMachine
	LiveRound    = console.LiveRound
	LiveEtcd     = console.LiveEtcd
)

// The states of a machine in the console's live picture.
const (
	StateUp          = console.StateUp
	StateDown        = console.StateDown
	StateUnreachable = console.StateUnreachable
	StateLeaving     = console.StateLeaving
	StateJoining     = console.StateJoining
)

// The bodies of the booking routes are the booking package's.
type (
	Booking        = booking.Booking
	BookingRequest = booking.BookingRequest
	LegRef         = booking.LegRef
	Seats          = booking.Seats
	// Booker is a delegate's client that takes bookings (soap.SellerClient is one).
	Booker = booking.Booker
)
