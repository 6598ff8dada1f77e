package soap

import (
	"errors"
	"fmt"
)

// Fault kinds: what a booking fault means, carried in the fault's detail so that a caller (the
// search server) can answer with the matching HTTP status. A Client fault without a kind is bad
// input; a Server fault without a kind is a failure the caller may retry on another machine.
const (
	KindNotFound    = "not-found"       // an unknown alliance, seller, flight or booking
	KindConflict    = "conflict"        // not enough seats left, or a booking in the wrong state
	KindKeyReused   = "key-reused"      // the idempotency key was used with another request
	KindUnavailable = "unavailable"     // the alliance cannot take bookings now; nothing was done
	KindUnknown     = "outcome-unknown" // the outcome is not known: retry with the same key
	// KindOtherAlliance: the request is another alliance's than this machine's (a machine now at
	// an address that alliance registered); nothing was done, and its alliance's own machines
	// may still be asked.
	KindOtherAlliance = "other-alliance"
)

// KindFault is a fault of the given kind: a Client fault for the caller's mistakes (not found,
// conflict, key reused, another alliance's request), a Server fault otherwise.
func KindFault(kind, format string, args ...any) *Fault {
	code := CodeClient
	if kind == KindUnavailable || kind == KindUnknown {
		code = CodeServer
	}
	return &Fault{Code: code, String: fmt.Sprintf(format, args...), Detail: kind}
}

// FaultKind returns the kind of the fault err is or wraps ("" when it has none or is no fault).
func FaultKind(err error) string {
	var f *Fault
	if errors.As(err, &f) {
		return f.Detail
	}
	return ""
}
