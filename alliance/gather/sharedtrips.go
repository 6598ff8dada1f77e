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

// toSharedTrips converts the trips of l at positions idx to their shared SOAP form; Seats is each
// flight's seats for sale. A leg is a flight of l (trip.List.Ref), converted once however many of
// the trips it is a leg of, in the order the trips first name them.
func toSharedTrips(l trip.List, idx []int, alliance string) sharedTrips {
	n := 0
	for _, k := range idx {
		n += l.NumLegs(k)
	}
	legOf := make([]int32, l.Flights()+1) // a List's ref → its leg's index here plus one
	prices := priceTexts(l, idx)
	out := sharedTrips{trips: make([]soap.Trip, len(idx))}
	indexes := make([]int, 0, n)
	for i, k := range idx {
		first := len(indexes)
		for j := range l.NumLegs(k) {
			ref := l.Ref(k, j)
			if legOf[ref] == 0 {
				out.legs = append(out.legs, wire.Leg(*l.Leg(k, j), alliance))
				legOf[ref] = int32(len(out.legs))
			}
			indexes = append(indexes, int(legOf[ref])-1)
		}
		out.trips[i] = soap.Trip{Price: prices[i], LegIndexes: indexes[first:len(indexes):len(indexes)]}
	}
	return out
}

// priceTexts is the text of the price of every trip of l at positions idx, written in one
// allocation: the texts are substrings of one string (a whole list's thousands of prices are one
// object, not thousands).
func priceTexts(l trip.List, idx []int) []string {
	buf := make([]byte, 0, 8*len(idx))
	ends := make([]int, len(idx))
	for i, k := range idx {
		buf = l.Price(k).AppendTo(buf)
		ends[i] = len(buf)
	}
	all := string(buf)
	texts := make([]string, len(idx))
	start := 0
	for i, end := range ends {
		texts[i], start = all[start:end], end
	}
	return texts
}

// sharedForm is the shared SOAP form of every trip, made once.
func (l *tripList) sharedForm(alliance string) sharedTrips {
	l.sharedOnce.Do(func() { l.shared = toSharedTrips(l.trips, firstTrips(l.trips.Len()), alliance) })
	return l.shared
}

// sharedPage is page in the shared form. The whole list of a cached list is its shared form,
// made once (the page's lists are copies: the answer is the caller's to change); any other page
// is converted by itself, so that its legs are only its trips'.
func (l *tripList) sharedPage(ctl controls, alliance string, cached bool) (page sharedTrips, total int) {
	if !l.whole() && !firstPage(ctl) {
		panic("gather: a list of the first trips asked for more than a first page") // never: see GetTrips
	}
	idx, total := l.trips.SelectIndex(ctl.filter, ctl.order, ctl.max)
	if idx == nil {
		total = l.total // the same for a whole list; the whole list's count for its first trips
		n := min(l.trips.Len(), total, maxOr(ctl.max, total))
		if cached && l.whole() && n == l.trips.Len() {
			f := l.sharedForm(alliance)
			return sharedTrips{legs: slices.Clone(f.legs), trips: slices.Clone(f.trips)}, total
		}
		idx = firstTrips(n)
	}
	return toSharedTrips(l.trips, idx, alliance), total
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
