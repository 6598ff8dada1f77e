package booking

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"flightalliance/contract"
	"flightalliance/search/internal/rest"
	"flightalliance/search/registry"
)

// Limits of a booking request, checked at the edge; the airline server checks them again, and
// the rest of the contract (trip shape, seats left) besides.
const (
	maxKeyLen  = 128
	maxSeats   = 1000
	minHold    = time.Second
	maxHold    = 24 * time.Hour
	KeyHeader  = "Idempotency-Key"
	legsWanted = "1 or 2 legs, each {\"seller\": \"LY\", \"flight\": \"LY001\"}"
)

var (
	bookingIDRe = regexp.MustCompile(`^[a-z0-9]{26}$`)
)

// bookingFields are the fields of a booking body, named by the error about an unknown field.
const bookingFields = "alliance, legs, seats, hold"

// decodeBookingRequest reads and validates the body of POST /Services/FlightsSearch/bookings.
// It decodes strictly: unknown fields and wrong types are refused naming the field, down to the
// leg (legs[1].flight). Errors are *InputError, or wrap *http.MaxBytesError for a body too large.
func decodeBookingRequest(body io.Reader) (BookingRequest, error) {
	var top struct {
		Alliance string            `json:"alliance"`
		Legs     []json.RawMessage `json:"legs"`
		Seats    int               `json:"seats"`
		Hold     string            `json:"hold"`
	}
	if err := decodeStrict(body, &top, "", bookingFields); err != nil {
		return BookingRequest{}, err
	}
	req := BookingRequest{Alliance: top.Alliance, Seats: top.Seats, Hold: top.Hold}
	switch {
	case req.Alliance == "":
		return req, rest.InputErr("alliance", "missing (the name an alliance registered under, such as star)")
	case !registry.ValidName(req.Alliance):
		return req, rest.InputErr("alliance", "%q is not an alliance name (1 to 64 letters, digits, '_' or '-')", rest.Clip(req.Alliance))
	case len(top.Legs) < 1 || len(top.Legs) > 2:
		return req, rest.InputErr("legs", "%d given, want %s", len(top.Legs), legsWanted)
	}
	for i, raw := range top.Legs {
		prefix := fmt.Sprintf("legs[%d]", i)
		var l LegRef
		if err := decodeStrict(bytes.NewReader(raw), &l, prefix, "seller, flight"); err != nil {
			return req, err
		}
		switch {
		case l.Seller == "":
			return req, rest.InputErr(prefix+".seller", "missing (a seller code such as LY)")
		case !contract.ValidSeller(l.Seller):
			return req, rest.InputErr(prefix+".seller", "%q is not a seller code (2-8 of A-Z, 0-9)", rest.Clip(l.Seller))
		case l.Flight == "":
			return req, rest.InputErr(prefix+".flight", "missing (a flight number such as LY001)")
		case !contract.ValidFlightNumber(l.Flight):
			return req, rest.InputErr(prefix+".flight", "%q is not a flight number (1-16 of A-Z, 0-9)", rest.Clip(l.Flight))
		}
		req.Legs = append(req.Legs, l)
	}
	if req.Seats < 1 || req.Seats > maxSeats {
		return req, rest.InputErr("seats", "%d, want 1 to %d", req.Seats, maxSeats)
	}
	if req.Hold != "" {
		d, err := time.ParseDuration(req.Hold)
		if err != nil {
			return req, rest.InputErr("hold", "%q is not a Go duration such as 10m", rest.Clip(req.Hold))
		}
		if d < minHold || d > maxHold {
			return req, rest.InputErr("hold", "%s, want %s to %s", d, minHold, maxHold)
		}
	}
	return req, nil
}

// decodeStrict decodes one JSON object into v, refusing unknown fields, wrong types and trailing
// data with an *InputError naming the field (prefixed with prefix, when v is a nested object).
func decodeStrict(body io.Reader, v any, prefix, fields string) error {
	whole, field := "body", func(name string) string { return name }
	if prefix != "" {
		whole, field = prefix, func(name string) string { return prefix + "." + name }
	}
	// The decoder reads as it goes (too deep a nesting is refused before the rest is read); what
	// it read is kept for rest.CheckKeys.
	var read bytes.Buffer
	dec := json.NewDecoder(io.TeeReader(body, &read))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && rest.Trailing(dec) {
		return rest.InputErr(whole, "unexpected data after the JSON object")
	}
	if err == nil {
		return rest.CheckKeys(read.Bytes(), field)
	}
	if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return fmt.Errorf("body: larger than %d bytes: %w", mbe.Limit, err)
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if te.Field == "" {
			return rest.InputErr(whole, "a JSON %s, want an object", te.Value)
		}
		return rest.InputErr(field(te.Field), "a JSON %s, want %s", te.Value, jsonKind(te.Type.Kind().String()))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return rest.InputErr(field(strings.Trim(name, `"`)), "unknown field (expected %s)", fields)
	}
	if prefix != "" {
		return rest.InputErr(whole, "not a JSON object: %v", err)
	}
	return rest.InputErr(whole, "not a JSON object such as {\"alliance\": \"star\", \"legs\": [{\"seller\": \"LY\", \"flight\": \"LY001\"}], \"seats\": 2}: %v", err)
}

// jsonKind names a Go kind as the JSON a client should have sent.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "int", "int64":
		return "an integer"
	case "slice":
		return "an array"
	case "struct":
		return "an object"
	}
	return kind
}

// idempotencyKey reads the Idempotency-Key header: "" when absent (and not required). A key is
// 1 to 128 printable ASCII characters, given once.
func idempotencyKey(h http.Header, required bool) (string, error) {
	vals := h.Values(KeyHeader)
	switch {
	case len(vals) == 0 && required:
		return "", rest.InputErr(KeyHeader, "missing header: choose a key (1 to %d printable ASCII characters) and send the same one when retrying, so that a retry never books twice", maxKeyLen)
	case len(vals) == 0:
		return "", nil
	case len(vals) > 1:
		return "", rest.InputErr(KeyHeader, "given %d times, expected once", len(vals))
	}
	key := vals[0]
	if key == "" || len(key) > maxKeyLen {
		return "", rest.InputErr(KeyHeader, "%d characters, want 1 to %d", len(key), maxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return "", rest.InputErr(KeyHeader, "character %d is not printable ASCII", i+1)
		}
	}
	return key, nil
}

// bookingAlliance is the alliance a booking ID names: IDs are <alliance>.<26 base32 characters>,
// and alliance names have no '.', so the ID is cut at its last '.'. ok is false for an ID that is
// not of that form.
func bookingAlliance(id string) (alliance string, ok bool) {
	alliance, key, found := cutLast(id, ".")
	if !found || !registry.ValidName(alliance) || !bookingIDRe.MatchString(key) {
		return "", false
	}
	return alliance, true
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// seatsQuery validates the query of GET /Services/FlightsSearch/seats: alliance, seller and
// flight, each once, nothing else.
func seatsQuery(raw string) (alliance, seller, flight string, err error) {
	v, err := rest.ParseRawQuery(raw)
	if err != nil {
		return "", "", "", err
	}
	for _, name := range slices.Sorted(maps.Keys(v)) {
		switch {
		case name != "alliance" && name != "seller" && name != "flight":
			return "", "", "", rest.InputErr(name, "unknown parameter (expected alliance, seller, flight)")
		case len(v[name]) > 1:
			return "", "", "", rest.InputErr(name, "given %d times, expected once", len(v[name]))
		}
	}
	alliance, seller, flight = v.Get("alliance"), v.Get("seller"), v.Get("flight")
	switch {
	case alliance == "":
		return "", "", "", rest.InputErr("alliance", "missing (the name an alliance registered under, such as star)")
	case !registry.ValidName(alliance):
		return "", "", "", rest.InputErr("alliance", "%q is not an alliance name (1 to 64 letters, digits, '_' or '-')", rest.Clip(alliance))
	case seller == "":
		return "", "", "", rest.InputErr("seller", "missing (a seller code such as LY)")
	case !contract.ValidSeller(seller):
		return "", "", "", rest.InputErr("seller", "%q is not a seller code (2-8 of A-Z, 0-9)", rest.Clip(seller))
	case flight == "":
		return "", "", "", rest.InputErr("flight", "missing (a flight number such as LY001)")
	case !contract.ValidFlightNumber(flight):
		return "", "", "", rest.InputErr("flight", "%q is not a flight number (1-16 of A-Z, 0-9)", rest.Clip(flight))
	}
	return alliance, seller, flight, nil
}
