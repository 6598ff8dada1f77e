// Package searchtest holds the fixtures the tests of the search server's packages share: legs and
// trips as delegates send them, and random airline trips to hold the search server's merge to
// the airline's order. Only tests import it; it must not import the search server's packages
// (their in-package tests import it).
package searchtest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"flightalliance/alliance/flight"
	airtrip "flightalliance/alliance/trip"
	"flightalliance/soap"
)

// Leg is a leg of a delegate's answer on 2026-12-01: its seller is the flight number's first two
// letters, dep and arr are hours ("08:00").
func Leg(flight, src, dst, dep, arr, price string) soap.Leg {
	return soap.Leg{Flight: flight, Seller: flight[:2], Alliance: "ignored", Src: src, Dst: dst,
		Departure: "2026-12-01T" + dep + ":00Z", Arrival: "2026-12-01T" + arr + ":00Z", Price: price, Seats: 10}
}

// WireTrip is a trip of a delegate's answer with its legs inline.
func WireTrip(price string, legs ...soap.Leg) soap.Trip { return soap.Trip{Price: price, Legs: legs} }

// FlightPool makes n (at most 12) distinct flights (a flight is its seller and number) with few
// distinct prices, times and numbers, so that ties on every key are common; numbers repeat across
// sellers.
func FlightPool(rng *rand.Rand, n int) []flight.Flight {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	seen := map[flight.Key]bool{}
	var pool []flight.Flight
	for len(pool) < n {
		// Directs TLV→JFK and first legs TLV→ATH leave in the first hour and land within the
		// second; second legs ATH→JFK leave in the third: every first and second connect.
		r := routes[rng.IntN(len(routes))]
		f := flight.Flight{
			Seller: []string{"LY", "UA", "LH"}[rng.IntN(3)],
			Number: fmt.Sprintf("F%d", rng.IntN(4)),
			Src:    r.src, Dst: r.dst,
			Price: flight.Cents(50 * rng.IntN(3)),
			Seats: rng.IntN(3),
		}
		if seen[f.Key()] {
			continue
		}
		seen[f.Key()] = true
		f.Departure = day.Add(r.from + time.Duration(rng.IntN(3))*30*time.Minute)
		f.Arrival = f.Departure.Add(time.Duration(1+rng.IntN(2)) * 30 * time.Minute)
		pool = append(pool, f)
	}
	return pool
}

// routes are the flights of FlightPool: TLV→JFK directs, and connections at ATH.
var routes = []struct {
	src, dst string
	from     time.Duration // the earliest departure, into the day
}{{"TLV", "JFK", 0}, {"TLV", "ATH", 0}, {"ATH", "JFK", 2 * time.Hour}}

// RandomAirlineTrips makes up to n distinct trips TLV→JFK of pool: directs, and connections at ATH.
func RandomAirlineTrips(rng *rand.Rand, pool []flight.Flight, n int) []airtrip.Trip {
	from := func(src, dst string) []flight.Flight {
		return slices.DeleteFunc(slices.Clone(pool), func(f flight.Flight) bool { return f.Src != src || f.Dst != dst })
	}
	directs, firsts, seconds := from("TLV", "JFK"), from("TLV", "ATH"), from("ATH", "JFK")
	seen := map[string]bool{}
	var out []airtrip.Trip
	for range n {
		var legs []flight.Flight
		switch {
		case rng.IntN(2) == 0 && len(firsts) > 0 && len(seconds) > 0:
			legs = []flight.Flight{firsts[rng.IntN(len(firsts))], seconds[rng.IntN(len(seconds))]}
		case len(directs) > 0:
			legs = []flight.Flight{directs[rng.IntN(len(directs))]}
		default:
			continue
		}
		id := TripID(legs)
		if seen[id] {
			continue
		}
		seen[id] = true
		var price flight.Cents
		for _, l := range legs {
			price += l.Price
		}
		out = append(out, airtrip.Trip{Legs: legs, Price: price})
	}
	return out
}

func TripID(legs []flight.Flight) string {
	var parts []string
	for _, l := range legs {
		parts = append(parts, l.Seller+"/"+l.Number)
	}
	return strings.Join(parts, ">")
}

// ToWire is a trip as a delegate sends it (alliance/gather/triplist.go's wire form).
func ToWire(t airtrip.Trip, alliance string) soap.Trip {
	w := soap.Trip{Price: t.Price.String()}
	for _, f := range t.Legs {
		w.Legs = append(w.Legs, soap.Leg{Flight: f.Number, Seller: f.Seller, Alliance: alliance, Src: f.Src, Dst: f.Dst,
			Departure: f.Departure.Format(time.RFC3339), Arrival: f.Arrival.Format(time.RFC3339),
			Price: f.Price.String(), Seats: f.Seats})
	}
	return w
}
