package search

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
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

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Query is a validated search: IATA airports, an ISO date and an optional seller filter.
type Query struct {
	Src     string
	Dst     string
	Date    string
	Sellers []string // nil: every seller
}

var (
	iataRe   = regexp.MustCompile(`^[A-Z]{3}$`)
	sellerRe = regexp.MustCompile(`^[A-Z0-9]{2,8}$`)
)

// maxSellers bounds the seller filter so that a query stays small on the wire.
const maxSellers = 64

// ParseQuery validates the query string of a search. Every parameter must appear at most once;
// unknown parameters are refused rather than ignored, so that a typo never widens a search.
func ParseQuery(v url.Values) (Query, error) {
	for _, name := range slices.Sorted(maps.Keys(v)) {
		vals := v[name]
		switch name {
		case "src", "dst", "date", "servers":
		default:
			return Query{}, inputErr(name, "unknown parameter (expected src, dst, date, servers)")
		}
		if len(vals) > 1 {
			return Query{}, inputErr(name, "given %d times, expected once", len(vals))
		}
	}
	var q Query
	var err error
	if q.Src, err = airport(v, "src"); err != nil {
		return Query{}, err
	}
	if q.Dst, err = airport(v, "dst"); err != nil {
		return Query{}, err
	}
	if q.Src == q.Dst {
		return Query{}, inputErr("dst", "%q is the same airport as src", q.Dst)
	}
	if q.Date, err = isoDate(v); err != nil {
		return Query{}, err
	}
	if vals, ok := v["servers"]; ok {
		if q.Sellers, err = ParseSellers(vals[0]); err != nil {
			return Query{}, &InputError{Field: "servers", Reason: err.Error()}
		}
	}
	return q, nil
}

func airport(v url.Values, name string) (string, error) {
	vals, ok := v[name]
	if !ok || vals[0] == "" {
		return "", inputErr(name, "missing (an IATA airport code such as TLV)")
	}
	if !iataRe.MatchString(vals[0]) {
		return "", inputErr(name, "%q is not an IATA airport code (three upper-case letters)", clip(vals[0]))
	}
	return vals[0], nil
}

func isoDate(v url.Values) (string, error) {
	vals, ok := v["date"]
	if !ok || vals[0] == "" {
		return "", inputErr("date", "missing (an ISO date such as 2026-12-01)")
	}
	if _, err := time.Parse(time.DateOnly, vals[0]); err != nil {
		return "", inputErr("date", "%q is not an ISO date (YYYY-MM-DD)", clip(vals[0]))
	}
	return vals[0], nil
}

// ParseSellers parses a comma-separated list of seller codes ([A-Z0-9]{2,8}). Duplicates are
// dropped, the first occurrence keeping its place. The error names the bad code, not the field.
func ParseSellers(s string) ([]string, error) {
	if s == "" {
		return nil, errors.New("empty seller list (omit it to search every seller)")
	}
	parts := strings.Split(s, ",")
	if len(parts) > maxSellers {
		return nil, fmt.Errorf("%d seller codes, at most %d", len(parts), maxSellers)
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if !sellerRe.MatchString(p) {
			return nil, fmt.Errorf("%q is not a seller code (2 to 8 upper-case letters or digits)", clip(p))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// clip keeps echoed input short, so an error message cannot be used to reflect a huge value.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
