package ledger

import (
	"errors"
	"fmt"
)

var (
	// ErrNoBooking: the alliance has no booking of that ID.
	ErrNoBooking = errors.New("no such booking")
	// ErrKeyReused: the idempotency key made a booking with a different request.
	ErrKeyReused = errors.New("idempotency key reused")
)

// OutcomeError is a change that did not finish: Unknown when a write may have been applied
// (the same request, retried, will tell), otherwise nothing was written.
type OutcomeError struct {
	Unknown bool
	Err     error
}

func (e *OutcomeError) Error() string { return e.Err.Error() }
func (e *OutcomeError) Unwrap() error { return e.Err }

// Reason says why the booking service refused a request before touching the record.
type Reason int

// The reasons of a RefusedError.
const (
	// NotFound: the alliance has no such seller, flight or booking.
	NotFound Reason = iota + 1
	// Unavailable: the request cannot be served now (this machine is not ready, or no holder of
	// a seller answered); nothing was changed and the same request may be sent again.
	Unavailable
	// BadRequest: a field of the request is wrong.
	BadRequest
	// OtherAlliance: the request (its alliance, its booking ID) is another alliance's: it reached
	// a machine that is not of that alliance (one now at an address the alliance registered),
	// which changed nothing and knows nothing of it.
	OtherAlliance
)

// RefusedError is a request the booking service refused; Msg names the field and the value.
type RefusedError struct {
	Reason Reason
	Msg    string
}

func (e *RefusedError) Error() string { return e.Msg }

func refuse(r Reason, format string, args ...any) error {
	return &RefusedError{Reason: r, Msg: fmt.Sprintf(format, args...)}
}
