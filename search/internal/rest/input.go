package rest

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every error about bad input from a client (query parameters,
// registration bodies); the HTTP layer answers 400 to it.
var ErrInvalidInput = errors.New("invalid input")

// InputError names the parameter or field that is wrong and why.
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

// Unwrap makes every InputError match ErrInvalidInput.
func (e *InputError) Unwrap() error { return ErrInvalidInput }

// InputErr is an *InputError naming field, its reason formatted.
func InputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
