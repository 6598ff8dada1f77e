package booking

import (
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
)

// CheckTrip tells whether legs form a trip of docs/api.md: one flight, or two flights where the second
// departs from the first's arrival airport on the same UTC date, at least minConn after the
// first lands, and the connecting airport is neither end. The trip builder is the definition: a
// pair is a connection exactly when Build would list it. The error is a *FieldError on "legs".
func CheckTrip(legs []flight.Flight, minConn time.Duration) error {
	if len(legs) == 1 {
		return nil
	}
	if len(legs) != 2 {
		return fieldErr("legs", "%d legs: a booking has one flight or the two flights of a connection", len(legs))
	}
	f1, f2 := legs[0], legs[1]
	if minConn <= 0 {
		minConn = trip.DefaultMinConnection
	}
	switch {
	case f1.Dst != f2.Src:
		return fieldErr("legs", "%s lands at %s but %s departs from %s", f1.Number, f1.Dst, f2.Number, f2.Src)
	case f1.Src == f2.Dst:
		return fieldErr("legs", "%s and %s return to %s: not a trip", f1.Number, f2.Number, f1.Src)
	case flight.DateOf(f1.Departure) != flight.DateOf(f2.Departure):
		return fieldErr("legs", "%s departs on %s and %s on %s: a connection's flights depart on one UTC date",
			f1.Number, flight.DateOf(f1.Departure), f2.Number, flight.DateOf(f2.Departure))
	case f2.Departure.Before(f1.Arrival.Add(minConn)):
		return fieldErr("legs", "%s departs %s after %s lands: the connection needs at least %s",
			f2.Number, f2.Departure.Sub(f1.Arrival), f1.Number, minConn)
	}
	q := trip.Query{Src: f1.Src, Dst: f2.Dst, Date: flight.DateOf(f1.Departure), MinConnection: minConn}
	for _, t := range trip.Build(q, []flight.Flight{f1}, []flight.Flight{f2}) {
		if len(t.Legs) == 2 && t.Legs[0].Key() == f1.Key() && t.Legs[1].Key() == f2.Key() {
			return nil
		}
	}
	return fieldErr("legs", "%s then %s is not a trip", f1.Number, f2.Number)
}
