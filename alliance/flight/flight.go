package flight

import (
	"math"
	"time"

	"flightalliance/contract"
)

// Flight is one scheduled flight of one seller, as in a row of the seller's CSV file.
type Flight struct {
	Number    string    // unique within the seller; see ValidFlightNumber
	Seller    string    // see ValidSeller
	Src, Dst  string    // IATA airport codes, Src != Dst
	Departure time.Time // an instant; UTC in everything this package returns
	Arrival   time.Time // after Departure
	Price     Cents     // non-negative
	Seats     int       // seats for sale, non-negative
}

// Key identifies a flight across the alliance: flight numbers are unique only within a seller.
type Key struct{ Seller, Number string }

// Key is the flight's alliance-wide identity.
func (f Flight) Key() Key { return Key{Seller: f.Seller, Number: f.Number} }

// ValidIATA reports whether code is an IATA airport code: exactly three upper-case ASCII letters
// (the contract's rule, which the search server applies to queries and answers alike).
func ValidIATA(code string) bool { return contract.ValidIATA(code) }

// ValidSeller reports whether code is a seller code: 2 to 8 characters, each an upper-case
// ASCII letter or a digit ("LY", "UA", "3K", "STAR1"). The code names the seller's data file
// (<code>.csv), so the rule also keeps it a safe file name.
func ValidSeller(code string) bool { return contract.ValidSeller(code) }

// CheckSeller is ValidSeller as an error: a *FieldError naming code, or nil.
func CheckSeller(code string) error {
	if !ValidSeller(code) {
		return fieldErrorf("seller", "%q is not a seller code (2-8 of A-Z, 0-9)", code)
	}
	return nil
}

// ValidFlightNumber reports whether number is a flight number: 1 to 16 characters, each an
// upper-case ASCII letter or a digit ("LY001").
func ValidFlightNumber(number string) bool { return contract.ValidFlightNumber(number) }

// Validate checks the rules of docs/api.md that concern one flight alone. The error is a *FieldError
// naming the first bad field. Times are instants: their location does not matter here (the CSV
// form is always UTC, and NewSeller stores them in UTC).
func (f Flight) Validate() error {
	switch {
	case !ValidFlightNumber(f.Number):
		return fieldErrorf("flight", "%q is not a flight number (1-16 of A-Z, 0-9)", f.Number)
	case !ValidSeller(f.Seller):
		return fieldErrorf("seller", "%q is not a seller code (2-8 of A-Z, 0-9)", f.Seller)
	case !ValidIATA(f.Src):
		return fieldErrorf("src", "%q is not an IATA airport code (three upper-case letters)", f.Src)
	case !ValidIATA(f.Dst):
		return fieldErrorf("dst", "%q is not an IATA airport code (three upper-case letters)", f.Dst)
	case f.Src == f.Dst:
		return fieldErrorf("dst", "%s equals src", f.Dst)
	case !f.Arrival.After(f.Departure):
		return fieldErrorf("arrival", "%s is not after departure %s",
			f.Arrival.Format(time.RFC3339Nano), f.Departure.Format(time.RFC3339Nano))
	case f.Price < 0:
		return fieldErrorf("price", "%s is negative", f.Price)
	case f.Price > MaxPrice:
		return fieldErrorf("price", "%s is more than a flight may cost (%s)", f.Price, MaxPrice)
	case f.Seats < 0:
		return fieldErrorf("seats", "%d is negative", f.Seats)
	case f.Seats > MaxSeats:
		return fieldErrorf("seats", "%d is more than a flight may have (%d, the WSDL's xsd:int)", f.Seats, MaxSeats)
	}
	if err := checkInstant("departure", f.Departure); err != nil {
		return err
	}
	return checkInstant("arrival", f.Arrival)
}

// MaxPrice is the most a flight may cost, 2^49 cents: a trip of two legs then costs at most the
// most both sides read as a price (contract.MaxCents), which is also the most a booking may cost
// per seat (booking.MaxPrice).
const MaxPrice = contract.MaxCents / 2

// MaxSeats is the most seats a flight may have: the WSDL's Seats is an xsd:int.
const MaxSeats = math.MaxInt32

// checkInstant refuses a time the wire cannot carry as it is: the SOAP form and the version
// hash write whole seconds (a fraction would be lost in a transfer, and every copy of the seller
// refused), and RFC 3339 years have four digits.
func checkInstant(field string, t time.Time) error {
	switch {
	case t.Nanosecond() != 0:
		return fieldErrorf(field, "%s has a fraction of a second (times are whole seconds)", t.UTC().Format(time.RFC3339Nano))
	case t.UTC().Year() < 1 || t.UTC().Year() > 9999:
		return fieldErrorf(field, "year %d is not between 0001 and 9999", t.UTC().Year())
	}
	return nil
}
