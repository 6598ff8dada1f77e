package booking

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"flightalliance/alliance/flight"
)

// Limits of a request (docs/api.md): a key is a client-chosen string of at most MaxKeyLen characters;
// a booking takes 1 to MaxSeats seats; a hold lasts MinHold to MaxHold.
const (
	MaxKeyLen = 128
	MaxSeats  = 1000
	MinHold   = time.Second
	MaxHold   = 24 * time.Hour
)

// LegRef names a flight to book.
type LegRef struct {
	Seller string
	Flight string
}

// Request is a reservation: Seats seats on every leg, or none. Key is the client's idempotency
// key; Hold, when not zero, makes the booking a hold that expires unless confirmed.
type Request struct {
	Alliance string
	Legs     []LegRef
	Seats    int
	Key      string
	Hold     time.Duration
}

// FieldError is a request's mistake, naming the field.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// ParseHold reads a hold duration: "" is no hold; otherwise a Go duration from MinHold to MaxHold.
func ParseHold(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fieldErr("hold", "%q is not a duration (such as 10m)", clip(s))
	}
	if d < MinHold || d > MaxHold {
		return 0, fieldErr("hold", "%s is outside %s to %s", d, MinHold, MaxHold)
	}
	return d, nil
}

// Validate checks every field of r that can be checked without the alliance's data; the error
// is a *FieldError.
func (r Request) Validate() error {
	switch {
	case r.Key == "":
		return fieldErr("RequestID", "missing: every reservation carries the client's idempotency key")
	case len(r.Key) > MaxKeyLen:
		return fieldErr("RequestID", "%d characters, at most %d", len(r.Key), MaxKeyLen)
	case !printable(r.Key):
		return fieldErr("RequestID", "must be printable ASCII")
	case r.Alliance == "":
		return fieldErr("alliance", "missing")
	case len(r.Legs) == 0 || len(r.Legs) > 2:
		return fieldErr("legs", "%d legs: a booking has one flight or the two flights of a connection", len(r.Legs))
	case r.Seats < 1 || r.Seats > MaxSeats:
		return fieldErr("seats", "%d: book 1 to %d seats", r.Seats, MaxSeats)
	case r.Hold != 0 && (r.Hold < MinHold || r.Hold > MaxHold):
		return fieldErr("hold", "%s is outside %s to %s", r.Hold, MinHold, MaxHold)
	}
	for i, l := range r.Legs {
		if !flight.ValidSeller(l.Seller) {
			return fieldErr(fmt.Sprintf("legs[%d].seller", i), "%q is not a seller code", clip(l.Seller))
		}
		if !flight.ValidFlightNumber(l.Flight) {
			return fieldErr(fmt.Sprintf("legs[%d].flight", i), "%q is not a flight number", clip(l.Flight))
		}
	}
	if len(r.Legs) == 2 && r.Legs[0] == r.Legs[1] {
		return fieldErr("legs", "the same flight %s twice", r.Legs[0].Flight)
	}
	return nil
}

// Fingerprint identifies what r asks for, so that a retry with the same key can be told from a
// different request reusing the key. It does not cover the key itself.
func (r Request) Fingerprint() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%d|%d", r.Alliance, r.Seats, r.Hold)
	for _, l := range r.Legs {
		fmt.Fprintf(&b, "|%s:%s", l.Seller, l.Flight)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// KeyHash is the name of an idempotency key in etcd: its SHA-256, so that any key is a safe
// path and its length bounded.
func KeyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// clip shortens a value quoted in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
