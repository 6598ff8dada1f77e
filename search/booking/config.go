package booking

import (
	"time"

	"flightalliance/search/registry"
)

// Config is what the booking routes need of the search server.
type Config struct {
	// Registrations are the known registrations, stale ones included: a stale delegate is still
	// asked for bookings, since it may well answer (only searches skip it).
	Registrations func() []registry.Registration
	// Machine is the client of the machine at uri (the SellerService URL it registered); one that
	// is a Booker takes bookings.
	Machine func(uri string) (any, error)
	// Timeout bounds one booking request across an alliance's machines; CallTimeout bounds each
	// call to one of them.
	Timeout, CallTimeout time.Duration
	// Answered counts an answer to a booking request by its op (reserve, get, cancel, confirm,
	// seats) and status.
	Answered func(op string, status int)
	// AlternateCalled counts a call to a machine of alliance other than its delegate.
	AlternateCalled func(alliance string)
	// CallFailed counts and logs a call to a machine that gave no answer, by reason
	// (delegatecall's Timeout, Fault, Transport or Malformed).
	CallFailed func(alliance, uri, reason string, err error)
}

// Handlers are the booking routes' handlers. Create them with New; they are safe for concurrent
// use.
type Handlers struct{ cfg Config }

// New returns the booking routes' handlers.
func New(cfg Config) *Handlers { return &Handlers{cfg: cfg} }
