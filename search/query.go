package search

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"flightalliance/contract"
	"flightalliance/search/internal/rest"
	"flightalliance/search/merge"
	"flightalliance/soap"
)

// MaxLimit is the largest page a search answers.
const MaxLimit = 1000

// params are the query parameters of a search, as the error for an unknown one lists them.
var params = []string{"src", "dst", "date", "servers", "limit", "offset", "nonstop", "max_price", "sort"}

// maxSellers bounds the seller filter so that a query stays small on the wire.
const maxSellers = 64

// ParseQuery validates the query string of a search into the query merge answers. Every
// parameter must appear at most once; unknown parameters are refused rather than ignored, so
// that a typo never widens a search.
func ParseQuery(v url.Values) (merge.Query, error) {
	for _, name := range slices.Sorted(maps.Keys(v)) {
		vals := v[name]
		if !slices.Contains(params, name) {
			return merge.Query{}, rest.InputErr(name, "unknown parameter (expected %s)", strings.Join(params, ", "))
		}
		if len(vals) > 1 {
			return merge.Query{}, rest.InputErr(name, "given %d times, expected once", len(vals))
		}
	}
	var q merge.Query
	var err error
	if q.Src, err = airport(v, "src"); err != nil {
		return merge.Query{}, err
	}
	if q.Dst, err = airport(v, "dst"); err != nil {
		return merge.Query{}, err
	}
	if q.Src == q.Dst {
		return merge.Query{}, rest.InputErr("dst", "%q is the same airport as src", q.Dst)
	}
	if q.Date, err = isoDate(v); err != nil {
		return merge.Query{}, err
	}
	if vals, ok := v["servers"]; ok {
		if q.Sellers, err = ParseSellers(vals[0]); err != nil {
			return merge.Query{}, &rest.InputError{Field: "servers", Reason: err.Error()}
		}
	}
	if err := parseControls(v, &q); err != nil {
		return merge.Query{}, err
	}
	return q, nil
}

// parseControls reads the optional paging and controls into q.
func parseControls(v url.Values, q *merge.Query) error {
	if vals, ok := v["limit"]; ok {
		n, ok := decimal(vals[0])
		if !ok || n < 1 || n > MaxLimit {
			return rest.InputErr("limit", "%q is not a page size (an integer from 1 to %d)", rest.Clip(vals[0]), MaxLimit)
		}
		q.Limit = n
	}
	if vals, ok := v["offset"]; ok {
		n, ok := decimal(vals[0])
		if !ok {
			return rest.InputErr("offset", "%q is not an offset (an integer, 0 or more)", rest.Clip(vals[0]))
		}
		q.Offset = n
	}
	if vals, ok := v["nonstop"]; ok {
		switch vals[0] {
		case "true":
			q.Nonstop = true
		case "false":
		default:
			return rest.InputErr("nonstop", "%q is not true or false", rest.Clip(vals[0]))
		}
	}
	if vals, ok := v["max_price"]; ok {
		c, err := contract.ParseCents(vals[0])
		if err != nil {
			return rest.InputErr("max_price", "%q is not a price (a decimal with at most two fraction digits, such as 123.45)", rest.Clip(vals[0]))
		}
		q.MaxPrice, q.HasMaxPrice = c, true
	}
	if vals, ok := v["sort"]; ok {
		o, err := contract.ParseOrder(vals[0])
		if err != nil {
			return &rest.InputError{Field: "sort", Reason: err.Error()}
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

// tripsRequest is the getTrips request that asks an alliance for q, its legs shared (merge reads
// both forms: a machine that does not know ShareLegs answers inline).
func tripsRequest(q merge.Query) soap.GetTripsRequest {
	req := soap.GetTripsRequest{Src: q.Src, Dst: q.Dst, Date: q.Date, Sellers: q.Sellers,
		MaxTrips: q.Wanted(), Nonstop: q.Nonstop, ShareLegs: true}
	if q.HasMaxPrice {
		req.MaxPrice = q.MaxPrice.String()
	}
	if q.Sort != contract.ByPrice {
		req.Sort = q.Sort.String()
	}
	return req
}

func airport(v url.Values, name string) (string, error) {
	vals, ok := v[name]
	if !ok || vals[0] == "" {
		return "", rest.InputErr(name, "missing (an IATA airport code such as TLV)")
	}
	if !contract.ValidIATA(vals[0]) {
		return "", rest.InputErr(name, "%q is not an IATA airport code (three upper-case letters)", rest.Clip(vals[0]))
	}
	return vals[0], nil
}

func isoDate(v url.Values) (string, error) {
	vals, ok := v["date"]
	if !ok || vals[0] == "" {
		return "", rest.InputErr("date", "missing (an ISO date such as 2026-12-01)")
	}
	if _, err := time.Parse(time.DateOnly, vals[0]); err != nil {
		return "", rest.InputErr("date", "%q is not an ISO date (YYYY-MM-DD)", rest.Clip(vals[0]))
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
		if !contract.ValidSeller(p) {
			return nil, fmt.Errorf("%q is not a seller code (2 to 8 upper-case letters or digits)", rest.Clip(p))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
