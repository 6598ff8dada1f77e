package gather

import (
	"slices"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/alliance/wire"
	"flightalliance/soap"
)

// sharedTrips is trips in the SOAP form of a getTrips that asked ShareLegs: each distinct flight
// once, as a leg in legs, and the trips naming theirs by position (Trip.LegIndexes). Made from
// the trips themselves, each flight is converted once, not once per trip it is a leg of.
type sharedTrips struct {
	legs  []soap.Leg
	trips []soap.Trip
}

// toSharedTrips converts trips to their shared SOAP form; Seats is each flight's seats for sale.
// A flight is one leg by its key (flight numbers are unique within a seller); should two flights
// of one key differ, each gets its own leg.
func toSharedTrips(trips []trip.Trip, alliance string) sharedTrips {
	n := 0
	for _, t := range trips {
		n += len(t.Legs)
	}
	at := make(map[flight.Key]int, min(n, 1024))
	var flights []*flight.Flight // of legs, by position
	out := sharedTrips{trips: make([]soap.Trip, len(trips))}
	indexes := make([]int, 0, n)
	for i := range trips {
		t := &trips[i]
		first := len(indexes)
		for j := range t.Legs {
			f := &t.Legs[j]
			key := flight.Key{Seller: f.Seller, Number: f.Number}
			k, ok := at[key]
			if !ok || *flights[k] != *f {
				k = len(out.legs)
				if !ok {
					at[key] = k
				}
				flights = append(flights, f)
				out.legs = append(out.legs, wire.Leg(*f, alliance))
			}
			indexes = append(indexes, k)
		}
		out.trips[i] = soap.Trip{Price: t.Price.String(), LegIndexes: indexes[first:len(indexes):len(indexes)]}
	}
	return out
}

// sharedForm is the shared SOAP form of every trip, made once.
func (l *tripList) sharedForm(alliance string) sharedTrips {
	l.sharedOnce.Do(func() { l.shared = toSharedTrips(l.trips, alliance) })
	return l.shared
}

// sharedPage is page in the shared form. The whole list of a cached list is its shared form,
// made once (the page's lists are copies: the answer is the caller's to change); any other page
// is converted by itself, so that its legs are only its trips'.
func (l *tripList) sharedPage(ctl controls, alliance string, cached bool) (page sharedTrips, total int) {
	if !l.whole() && !firstPage(ctl) {
		panic("gather: a list of the first trips asked for more than a first page") // never: see GetTrips
	}
	idx, total := trip.SelectIndex(l.trips, ctl.filter, ctl.order, ctl.max)
	if idx == nil {
		total = l.total // the same for a whole list; the whole list's count for its first trips
		n := min(len(l.trips), total, maxOr(ctl.max, total))
		if cached && l.whole() && n == len(l.trips) {
			f := l.sharedForm(alliance)
			return sharedTrips{legs: slices.Clone(f.legs), trips: slices.Clone(f.trips)}, total
		}
		return toSharedTrips(l.trips[:n], alliance), total
	}
	picked := make([]trip.Trip, len(idx))
	for i, k := range idx {
		picked[i] = l.trips[k]
	}
	return toSharedTrips(picked, alliance), total
}

// legsWithSeatsLeft is withSeatsLeft for shared legs: the legs with Seats the seats left now, and
// the version of the seat counters read. A leg's seats are taken off in place: legs are the page's
// own (sharedPage).
func legsWithSeatsLeft(legs []soap.Leg, seats *ledger.Seats) ([]soap.Leg, uint64) {
	var version uint64
	seats.Reading(func(booked func(flight.Key) int, v uint64) {
		version = v
		for j := range legs {
			if b := booked(flight.Key{Seller: legs[j].Seller, Number: legs[j].Flight}); b > 0 {
				legs[j].Seats = max(0, legs[j].Seats-b)
			}
		}
	})
	return legs, version
}
