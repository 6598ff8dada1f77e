package search

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"flightalliance/soap"
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

// Query is a validated search: IATA airports, an ISO date, an optional seller filter, and the
// optional paging and controls of API.md.
type Query struct {
	Src     string
	Dst     string
	Date    string
	Sellers []string // nil: every seller

	Limit       int   // the page's size, 1 to MaxLimit; 0: the whole list from Offset
	Offset      int   // trips of the whole list before the page
	Nonstop     bool  // direct trips only
	MaxPrice    int64 // cents; trips that cost at most this, when HasMaxPrice
	HasMaxPrice bool
	Sort        Order
}

// MaxLimit is the largest page a search answers.
const MaxLimit = 1000

// params are the query parameters of a search, as the error for an unknown one lists them.
var params = []string{"src", "dst", "date", "servers", "limit", "offset", "nonstop", "max_price", "sort"}

var sellerRe = regexp.MustCompile(`^[A-Z0-9]{2,8}$`)

// maxSellers bounds the seller filter so that a query stays small on the wire.
const maxSellers = 64

// ParseQuery validates the query string of a search. Every parameter must appear at most once;
// unknown parameters are refused rather than ignored, so that a typo never widens a search.
func ParseQuery(v url.Values) (Query, error) {
	for _, name := range slices.Sorted(maps.Keys(v)) {
		vals := v[name]
		if !slices.Contains(params, name) {
			return Query{}, inputErr(name, "unknown parameter (expected %s)", strings.Join(params, ", "))
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
	if err := parseControls(v, &q); err != nil {
		return Query{}, err
	}
	return q, nil
}

// parseControls reads the optional paging and controls into q.
func parseControls(v url.Values, q *Query) error {
	if vals, ok := v["limit"]; ok {
		n, ok := decimal(vals[0])
		if !ok || n < 1 || n > MaxLimit {
			return inputErr("limit", "%q is not a page size (an integer from 1 to %d)", clip(vals[0]), MaxLimit)
		}
		q.Limit = n
	}
	if vals, ok := v["offset"]; ok {
		n, ok := decimal(vals[0])
		if !ok {
			return inputErr("offset", "%q is not an offset (an integer, 0 or more)", clip(vals[0]))
		}
		q.Offset = n
	}
	if vals, ok := v["nonstop"]; ok {
		switch vals[0] {
		case "true":
			q.Nonstop = true
		case "false":
		default:
			return inputErr("nonstop", "%q is not true or false", clip(vals[0]))
		}
	}
	if vals, ok := v["max_price"]; ok {
		c, err := parseCents(vals[0])
		if err != nil {
			return inputErr("max_price", "%q is not a price (a decimal with at most two fraction digits, such as 123.45)", clip(vals[0]))
		}
		q.MaxPrice, q.HasMaxPrice = c, true
	}
	if vals, ok := v["sort"]; ok {
		o, err := ParseOrder(vals[0])
		if err != nil {
			return &InputError{Field: "sort", Reason: err.Error()}
		}
		q.Sort = o
	}
	return nil
}

// decimal reads a non-negative integer written in digits only (no sign, no spaces); false when
// it is not one or does not fit an int.
func decimal(s string) (int, bool) {
	if s == "" || len(s) > 18 || !allDigits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// keeps reports whether a trip passes the query's nonstop and max_price controls.
func (q Query) keeps(t *trip) bool {
	return (!q.Nonstop || len(t.legs) == 1) && (!q.HasMaxPrice || t.cents <= q.MaxPrice)
}

// wanted is how many trips of the top of its list each alliance is asked for: the whole list
// when there is no limit, else every trip up to the end of the page (getTrips's MaxTrips is an
// xsd:int).
func (q Query) wanted() int {
	if q.Limit == 0 {
		return 0
	}
	return int(min(int64(q.Offset)+int64(q.Limit), math.MaxInt32))
}

// tripsRequest is the getTrips request that asks an alliance for q, its legs shared (merge reads
// both forms: a machine that does not know ShareLegs answers inline).
func (q Query) tripsRequest() soap.GetTripsRequest {
	req := soap.GetTripsRequest{Src: q.Src, Dst: q.Dst, Date: q.Date, Sellers: q.Sellers,
		MaxTrips: q.wanted(), Nonstop: q.Nonstop, ShareLegs: true}
	if q.HasMaxPrice {
		req.MaxPrice = formatCents(q.MaxPrice)
	}
	if q.Sort != ByPrice {
		req.Sort = q.Sort.String()
	}
	return req
}

// echo is the query as the answer repeats it.
func (q Query) echo() QueryEcho {
	e := QueryEcho{Src: q.Src, Dst: q.Dst, Date: q.Date, Servers: q.Sellers,
		Limit: q.Limit, Offset: q.Offset, Nonstop: q.Nonstop}
	if q.HasMaxPrice {
		e.MaxPrice = formatCents(q.MaxPrice)
	}
	if q.Sort != ByPrice {
		e.Sort = q.Sort.String()
	}
	return e
}

func airport(v url.Values, name string) (string, error) {
	vals, ok := v[name]
	if !ok || vals[0] == "" {
		return "", inputErr(name, "missing (an IATA airport code such as TLV)")
	}
	if !isIATA(vals[0]) {
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
