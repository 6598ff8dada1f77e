package search

import (
	"errors"

	"flightalliance/soap"
)

// isFault reports whether err is a SOAP Fault: the delegate answered, and refused.
func isFault(err error) bool {
	_, ok := errors.AsType[*soap.Fault](err)
	return ok
}
