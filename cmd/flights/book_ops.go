package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"flightalliance/alliance/flight"
	"flightalliance/search"
)

// bookingOp is one of the commands on an existing booking: its name, the HTTP request it makes
// and what it is for.
type bookingOp struct {
	name, method, suffix, doc string
	keyed                     bool // takes --key, passed as the Idempotency-Key
}

var (
	opBooking = bookingOp{"booking", http.MethodGet, "", "Prints the booking as its alliance has it now.", false}
	opCancel  = bookingOp{"cancel", http.MethodDelete, "", "Cancels the booking: its seats are for sale again. Cancelling again answers the same.", true}
	opConfirm = bookingOp{"confirm", http.MethodPost, "/confirm", "Confirms a hold before it expires. Confirming again answers the same.", true}
)

// runOnBooking is `flights booking`, `flights cancel` and `flights confirm`: one request on the
// booking ID given, the booking printed.
func runOnBooking(op bookingOp, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flights "+op.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyUsage := ""
	if op.keyed {
		keyUsage = " [--key K]"
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: flights %s [--server URL [--ca FILE]]%s [--json] ID\n", op.name, keyUsage)
		fmt.Fprintln(fs.Output(), op.doc)
		fmt.Fprintln(fs.Output(), "Exit 0 ok, 1 refused (unknown booking, expired, ...) or bad input, 2 server unreachable or failed.")
		fs.PrintDefaults()
	}
	c := bookingFlags(fs, [2]string{"Idempotency-Key", "--key"})
	var key *string
	if op.keyed {
		key = fs.String("key", "", "request ID passed to the alliance (1 to 128 printable ASCII characters; optional)")
	}
	id, code, done := parseWithID(fs, args)
	if done {
		return code
	}
	if name, err := c.check(); err != nil {
		return usageError(stderr, name, err)
	}
	var k string
	if key != nil && *key != "" {
		if err := checkKey(*key); err != nil {
			return usageError(stderr, "--key", err)
		}
		k = *key
	}
	_, got, code := c.do(op.method, "/Services/FlightsSearch/bookings/"+url.PathEscape(id)+op.suffix, k, nil, stderr)
	if code != exitOK {
		return code
	}
	return answer(c, got, stdout, stderr, writeBooking)
}

// runSeats is `flights seats`: a flight's seats as its alliance's system of record has them.
func runSeats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flights seats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: flights seats [--server URL [--ca FILE]] --alliance star --seller LY --flight LY001 [--json]")
		fmt.Fprintln(fs.Output(), "Prints a flight's seats: for sale, booked (held or confirmed) and left, read from the alliance's system of record.")
		fmt.Fprintln(fs.Output(), "Exit 0 ok, 1 unknown alliance, seller or flight, or bad input, 2 server unreachable or failed.")
		fs.PrintDefaults()
	}
	c := bookingFlags(fs, [2]string{"alliance", "--alliance"}, [2]string{"seller", "--seller"}, [2]string{"flight", "--flight"})
	alliance := fs.String("alliance", "", "the flight's alliance (required)")
	seller := fs.String("seller", "", "the flight's seller code, such as LY (required)")
	number := fs.String("flight", "", "the flight number, such as LY001 (required)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	switch {
	case *alliance == "":
		return usageError(stderr, "--alliance", errors.New("missing (such as star)"))
	case *seller == "":
		return usageError(stderr, "--seller", errors.New("missing (a seller code such as LY)"))
	case !flight.ValidSeller(*seller):
		return usageError(stderr, "--seller", fmt.Errorf("%q is not a seller code (2-8 of A-Z, 0-9)", *seller))
	case *number == "":
		return usageError(stderr, "--flight", errors.New("missing (a flight number such as LY001)"))
	case !flight.ValidFlightNumber(*number):
		return usageError(stderr, "--flight", fmt.Errorf("%q is not a flight number (1-16 of A-Z, 0-9)", *number))
	}
	if name, err := c.check(); err != nil {
		return usageError(stderr, name, err)
	}
	q := url.Values{"alliance": {*alliance}, "seller": {*seller}, "flight": {*number}}
	_, got, code := c.do(http.MethodGet, "/Services/FlightsSearch/seats?"+q.Encode(), "", nil, stderr)
	if code != exitOK {
		return code
	}
	return answer(c, got, stdout, stderr, func(w io.Writer, s search.Seats) {
		fmt.Fprintf(w, "%s of %s (alliance %s): %d of %d seats left, %d booked\n", s.Flight, s.Seller, s.Alliance, s.Left, s.Capacity, s.Booked)
	})
}
