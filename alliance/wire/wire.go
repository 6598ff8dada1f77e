// Package wire converts the airline server's flights to and from their SOAP form: times as RFC
// 3339 UTC instants, prices as decimal strings. It checks what it parses and names the field; it
// must not know anything but the flight and its wire form.
package wire

import (
	"fmt"

	"flightalliance/alliance/flight"
	"flightalliance/soap"
)

// Flight converts a flight to its SOAP form.
func Flight(f flight.Flight) soap.Flight {
	return soap.Flight{
		Flight:    f.Number,
		Seller:    f.Seller,
		Src:       f.Src,
		Dst:       f.Dst,
		Departure: instantText(f.Departure),
		Arrival:   instantText(f.Arrival),
		Price:     f.Price.String(),
		Seats:     f.Seats,
	}
}

// Parse converts and checks a flight received from another machine.
func Parse(w soap.Flight) (flight.Flight, error) {
	dep, err := soap.ParseInstant(w.Departure)
	if err != nil {
		return flight.Flight{}, fmt.Errorf("flight %s: Departure: %w", w.Flight, err)
	}
	arr, err := soap.ParseInstant(w.Arrival)
	if err != nil {
		return flight.Flight{}, fmt.Errorf("flight %s: Arrival: %w", w.Flight, err)
	}
	price, err := flight.ParseCents(w.Price) // the contract's reading, fast for the form servers write
	if err != nil {
		return flight.Flight{}, fmt.Errorf("flight %s: Price: %w", w.Flight, err)
	}
	return flight.Flight{
		Number:    w.Flight,
		Seller:    w.Seller,
		Src:       w.Src,
		Dst:       w.Dst,
		Departure: dep.UTC(),
		Arrival:   arr.UTC(),
		Price:     price,
		Seats:     w.Seats,
	}, nil
}

// Leg converts a flight to a leg of a trip sold by alliance.
func Leg(f flight.Flight, alliance string) soap.Leg {
	w := Flight(f)
	return soap.Leg{
		Flight: w.Flight, Seller: w.Seller, Alliance: alliance, Src: w.Src, Dst: w.Dst,
		Departure: w.Departure, Arrival: w.Arrival, Price: w.Price, Seats: w.Seats,
	}
}
