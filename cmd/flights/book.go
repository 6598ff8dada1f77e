package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/search"
)

// Limits of a booking, as the search server checks them: refused here first, naming the flag.
const (
	maxSeats  = 1000
	maxKeyLen = 128
	minHold   = time.Second
	maxHold   = 24 * time.Hour
)

// bookFieldFlags maps the fields a search server names in its refusals to book's flags.
var bookFieldFlags = [][2]string{
	{"alliance", "--alliance"}, {"legs", "--legs"}, {"seats", "--seats"}, {"hold", "--hold"}, {"Idempotency-Key", "--key"},
}

// runBook is `flights book`: it books seats on one flight or a connection through the search
// server, under an idempotency key that makes a retry safe. Without --key a random key is made
// and shown, so that the user can retry the same booking with it.
func runBook(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flights book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: flights book [--server URL [--ca FILE]] --alliance star --legs LY:LY001[,UA:UA123] [--seats 1] [--key K] [--hold 10m] [--json]")
		fmt.Fprintln(fs.Output(), "Books seats on every leg, or none. Retry with the same --key: it never books twice.")
		fmt.Fprintln(fs.Output(), "Exit 0 booked, 1 refused or bad input, 2 server unreachable or failed (retry with the key it printed).")
		fs.PrintDefaults()
	}
	c := bookingFlags(fs, bookFieldFlags...)
	alliance := fs.String("alliance", "", "the alliance to book with, as it registered with the search server (required)")
	legs := fs.String("legs", "", "SELLER:FLIGHT, or two of them comma-separated for a connection (required)")
	seats := fs.Int("seats", 1, "seats on every leg, 1 to 1000")
	key := fs.String("key", "", "idempotency key, 1 to 128 printable ASCII characters; default a new random one, printed")
	hold := fs.String("hold", "", "hold the seats this long (1s to 24h) until `flights confirm`, instead of booking for good")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	req, err := bookingRequest(*alliance, *legs, *seats, *hold)
	if err != nil {
		fmt.Fprintf(stderr, "flights: %v\n", err)
		return exitUsage
	}
	if name, err := c.check(); err != nil {
		return usageError(stderr, name, err)
	}
	if *key == "" {
		*key = newKey()
		fmt.Fprintf(stderr, "flights: Idempotency-Key %s (to retry this booking, add --key %s: the same key never books twice)\n", *key, *key)
	} else if err := checkKey(*key); err != nil {
		return usageError(stderr, "--key", err)
	}
	body, _ := json.Marshal(req)
	status, got, code := c.do(http.MethodPost, "/Services/FlightsSearch/bookings", *key, body, stderr)
	if code == exitUnreliable {
		fmt.Fprintf(stderr, "flights: the booking may or may not have been made: retry with --key %s\n", *key)
	}
	if code != exitOK {
		return code
	}
	if status == http.StatusOK {
		fmt.Fprintf(stderr, "flights: key %s had already made this booking: nothing new was booked\n", *key)
	}
	return answer(c, got, stdout, stderr, writeBooking)
}

// bookingRequest validates book's flags into the REST body; errors name the flag.
func bookingRequest(alliance, legs string, seats int, hold string) (search.BookingRequest, error) {
	req := search.BookingRequest{Alliance: alliance, Seats: seats, Hold: hold}
	if alliance == "" {
		return req, errors.New("--alliance: missing (the alliance to book with, such as star)")
	}
	if legs == "" {
		return req, errors.New("--legs: missing (SELLER:FLIGHT, such as LY:LY001, or two comma-separated)")
	}
	parts := strings.Split(legs, ",")
	if len(parts) > 2 {
		return req, fmt.Errorf("--legs: %d legs, want 1 or 2 (a direct flight or one connection)", len(parts))
	}
	for _, p := range parts {
		seller, number, ok := strings.Cut(p, ":")
		switch {
		case !ok:
			return req, fmt.Errorf("--legs: %q is not SELLER:FLIGHT (such as LY:LY001)", p)
		case !flight.ValidSeller(seller):
			return req, fmt.Errorf("--legs: %q is not a seller code (2-8 of A-Z, 0-9)", seller)
		case !flight.ValidFlightNumber(number):
			return req, fmt.Errorf("--legs: %q is not a flight number (1-16 of A-Z, 0-9)", number)
		}
		req.Legs = append(req.Legs, search.LegRef{Seller: seller, Flight: number})
	}
	if seats < 1 || seats > maxSeats {
		return req, fmt.Errorf("--seats: %d, want 1 to %d", seats, maxSeats)
	}
	if hold != "" {
		d, err := time.ParseDuration(hold)
		if err != nil {
			return req, fmt.Errorf("--hold: %q is not a duration such as 10m", hold)
		}
		if d < minHold || d > maxHold {
			return req, fmt.Errorf("--hold: %s, want 1s to 24h", d)
		}
	}
	return req, nil
}

// newKey is a random idempotency key: 128 bits, hex.
func newKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// checkKey checks an idempotency key as the search server does: 1 to 128 printable ASCII.
func checkKey(key string) error {
	if len(key) > maxKeyLen {
		return fmt.Errorf("%d characters, want at most %d", len(key), maxKeyLen)
	}
	if strings.TrimSpace(key) != key {
		return errors.New("leading or trailing spaces, which an HTTP header loses")
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return fmt.Errorf("character %d is not printable ASCII", i+1)
		}
	}
	return nil
}
