// Package delegatecall is what the search server's calls to the alliances' machines share,
// searches (package search) and bookings (search/booking) alike: the reasons a call gave no
// answer, which label search_delegate_errors_total, and whether an error is a SOAP fault (the
// machine answered, and refused). It must hold nothing else.
package delegatecall

import (
	"errors"

	"flightalliance/soap"
)

// Reasons a delegate call gave no answer; they label search_delegate_errors_total.
const (
	Timeout   = "timeout"
	Fault     = "fault"
	Transport = "transport"
	Malformed = "malformed"
)

// IsFault reports whether err is a SOAP Fault: the delegate answered, and refused.
func IsFault(err error) bool {
	_, ok := errors.AsType[*soap.Fault](err)
	return ok
}
