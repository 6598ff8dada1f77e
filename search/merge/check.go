package merge

import (
	"fmt"
	"time"

	"flightalliance/contract"
	"flightalliance/soap"
)

// ConvertLeg validates a leg of a delegate's answer: the leg with its alliance and normalised
// price, its price in cents and its arrival.
func ConvertLeg(alliance string, wl soap.Leg) (Leg, contract.Cents, time.Time, error) {
	cents, _, arr, err := checkLeg(&wl)
	if err != nil {
		return Leg{}, 0, time.Time{}, err
	}
	return Leg{
		Flight: wl.Flight, Seller: wl.Seller, Alliance: alliance,
		Src: wl.Src, Dst: wl.Dst, Departure: wl.Departure, Arrival: wl.Arrival,
		Price: priceString(wl.Price, cents), Seats: wl.Seats,
	}, cents, arr, nil
}

// checkLeg validates a leg of a delegate's answer and returns its price in cents, departure and
// arrival.
func checkLeg(wl *soap.Leg) (cents contract.Cents, dep, arr time.Time, err error) {
	cents, err = contract.ParseCents(wl.Price)
	if err != nil {
		return 0, dep, arr, err
	}
	dep, err = soap.ParseInstant(wl.Departure)
	if err != nil {
		return 0, dep, arr, fmt.Errorf("departure %q is not an RFC 3339 instant", clip(wl.Departure))
	}
	arr, err = soap.ParseInstant(wl.Arrival)
	if err != nil {
		return 0, dep, arr, fmt.Errorf("arrival %q is not an RFC 3339 instant", clip(wl.Arrival))
	}
	// docs/api.md: instants in UTC. An offset of zero ("+00:00") is UTC written another way; any
	// other would show the client a local time (the text is copied as it came).
	if _, off := dep.Zone(); off != 0 {
		return 0, dep, arr, fmt.Errorf("departure %q is not in UTC", clip(wl.Departure))
	}
	if _, off := arr.Zone(); off != 0 {
		return 0, dep, arr, fmt.Errorf("arrival %q is not in UTC", clip(wl.Arrival))
	}
	if !contract.ValidIATA(wl.Src) || !contract.ValidIATA(wl.Dst) {
		return 0, dep, arr, fmt.Errorf("flight %q from %q to %q: not IATA airport codes (three upper-case letters)", clip(wl.Flight), clip(wl.Src), clip(wl.Dst))
	}
	if !arr.After(dep) {
		return 0, dep, arr, fmt.Errorf("flight %q arrives at %s, not after its departure", clip(wl.Flight), wl.Arrival)
	}
	if wl.Flight == "" || wl.Seller == "" {
		return 0, dep, arr, fmt.Errorf("flight %q of seller %q: missing flight number or seller", clip(wl.Flight), clip(wl.Seller))
	}
	if wl.Seats < 0 {
		return 0, dep, arr, fmt.Errorf("flight %q has %d seats", clip(wl.Flight), wl.Seats)
	}
	return cents, dep, arr, nil
}

// clip keeps echoed input short, so an error message cannot be used to reflect a huge value.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
