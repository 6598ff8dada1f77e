package booking

import (
	"fmt"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/contract"
)

// ConflictError is a refusal that changes nothing: a leg has fewer seats left than asked, or a
// booking is in a state that does not allow what was asked.
type ConflictError struct{ Reason string }

func (e *ConflictError) Error() string { return e.Reason }

// Counts are the seats booked on flights, by flight.
type Counts map[flight.Key]int

// Left is the seats left on f given the seats booked (never below zero: a file rewritten with
// fewer seats than were booked sells nothing more).
func Left(f flight.Flight, booked int) int { return max(0, f.Seats-booked) }

// Decide reserves seats on every leg, or none: it returns the new counts of the legs' flights, or
// a *ConflictError naming the first flight with too few seats left and how many it has.
func Decide(legs []flight.Flight, booked Counts, seats int) (Counts, error) {
	next := Counts{}
	for _, f := range legs {
		left := Left(f, booked[f.Key()])
		if left < seats {
			return nil, &ConflictError{Reason: fmt.Sprintf("flight %s of %s has %d seats left, %d asked", f.Number, f.Seller, left, seats)}
		}
		next[f.Key()] = booked[f.Key()] + seats
	}
	return next, nil
}

// MaxPrice is the most a booking may cost, in cents: the most both sides read as a price
// (contract.MaxCents, 2^50), below the 2^53 a JSON client in JavaScript counts exactly, and far
// below int64's end.
const MaxPrice = contract.MaxCents

// CheckPrice refuses seats on legs whose price would pass MaxPrice (a booking committed and then
// answered as malformed by the search server, at every retry): a *FieldError on "legs" when a
// seat alone would, else on "seats".
func CheckPrice(legs []flight.Flight, seats int) error {
	var each flight.Cents
	for _, f := range legs {
		if f.Price < 0 || f.Price > MaxPrice || each+f.Price > MaxPrice {
			return fieldErr("legs", "a price above %s", MaxPrice)
		}
		each += f.Price
	}
	if seats > 0 && each > MaxPrice/flight.Cents(seats) {
		return fieldErr("seats", "%d seats at %s cost more than a booking may (%s)", seats, each, MaxPrice)
	}
	return nil
}

// Release gives a booking's seats back: the new counts of its legs' flights.
func Release(r Record, booked Counts) Counts {
	next := Counts{}
	for _, l := range r.Legs {
		next[l.Key()] = max(0, booked[l.Key()]-r.Seats)
	}
	return next
}

// Ending is what happens to a booking asked to end (cancel) or confirm at now.
type Ending int

const (
	Keep      Ending = iota // nothing to write: answer the booking as it is
	Free                    // give its seats back, with the new status
	Confirm                 // write the confirmed status; seats stay taken
	Refuse                  // a *ConflictError says why
	ExpireNow               // a hold past its expiry: give its seats back as expired, then refuse
)

// Cancel decides a cancellation: a booking that holds seats frees them; cancelling again, or
// cancelling what expired, answers the booking as it is.
func Cancel(r Record) Ending {
	if r.Takes() {
		return Free
	}
	return Keep
}

// ConfirmAt decides a confirmation at now, r's expiry read on the same clock.
func ConfirmAt(r Record, now time.Time) (Ending, error) { return Confirming(r, Due(r, now)) }

// Confirming decides a confirmation of r, which has expired or not (a hold that fell due on the
// deciding machine's clock): a hold before its expiry is confirmed; a confirmed booking answers
// as it is; a cancelled or expired one, or a hold past its expiry, is refused.
func Confirming(r Record, expired bool) (Ending, error) {
	switch {
	case r.Status == Confirmed:
		return Keep, nil
	case r.Status == Held && !expired:
		return Confirm, nil
	case r.Status == Held:
		return ExpireNow, &ConflictError{Reason: fmt.Sprintf("booking %s expired at %s: its hold was not confirmed in time", r.ID, r.ExpiresAt.Format(time.RFC3339))}
	case r.Status == Expired:
		return Refuse, &ConflictError{Reason: fmt.Sprintf("booking %s expired at %s: its hold was not confirmed in time", r.ID, r.ExpiresAt.Format(time.RFC3339))}
	default:
		return Refuse, &ConflictError{Reason: fmt.Sprintf("booking %s is %s", r.ID, r.Status)}
	}
}

// Due reports whether a hold has expired at now and should give its seats back.
func Due(r Record, now time.Time) bool { return r.Status == Held && !now.Before(r.ExpiresAt) }
