package flight

import (
	"errors"
	"fmt"
)

// Sentinel errors callers branch on. Every validation failure wraps ErrInvalid.
var (
	// ErrInvalid marks input that breaks the flight data rules of docs/api.md.
	ErrInvalid = errors.New("invalid flight data")
	// ErrBadCursor marks a Page cursor this seller did not issue or cannot continue.
	ErrBadCursor = errors.New("bad page cursor")
	// ErrStaleCursor marks a Page cursor issued for another version of the seller's data: the
	// caller must restart the transfer from the first page.
	ErrStaleCursor = errors.New("stale page cursor")
	// ErrVersionMismatch marks an assembled seller whose content hash is not the announced one.
	ErrVersionMismatch = errors.New("seller version mismatch")
)

// FieldError says which field of a flight is wrong and why. It wraps ErrInvalid. ParseCSV
// prefixes it with "file:line: ", NewSeller with the seller and flight number.
type FieldError struct {
	Field  string // CSV column name ("price"), or "header", "record"
	Reason string // names the bad value
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

// Unwrap lets errors.Is(err, ErrInvalid) hold for every FieldError.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErrorf(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
