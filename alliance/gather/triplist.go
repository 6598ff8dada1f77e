package gather

import (
	"slices"
	"sync"
	"sync/atomic"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/alliance/wire"
	"flightalliance/soap"
)

// tripList is one query's whole list of trips in the price order, and — made once, on first use —
// its SOAP form with each leg's Seats the flight's seats for sale. A cached list serves every later
// search of the query: the controls pick trips by position, and only the seats left are filled in
// per answer, so an answer from the cache formats no time, price or name again.
//
// A list may also hold only the first trips of the whole (newFirstTrips): it then answers first
// pages alone (firstPage).
type tripList struct {
	trips []trip.Trip
	total int   // trips in the whole list
	cost  int64 // what the list may take in memory once its forms are made (costOf)
	once  sync.Once
	wire  []soap.Trip
	made  atomic.Bool // wire is made (once has run)

	sharedOnce sync.Once
	shared     sharedTrips // the shared form (sharedtrips.go), made once
}

func newTripList(trips []trip.Trip) *tripList {
	return &tripList{trips: trips, total: len(trips), cost: costOf(trips)}
}

// newFirstTrips is the list of the first trips of a whole list of total.
func newFirstTrips(first []trip.Trip, total int) *tripList {
	return &tripList{trips: first, total: total, cost: costOf(first)}
}

// whole reports whether the list holds every trip.
func (l *tripList) whole() bool { return len(l.trips) == l.total }

// firstPage reports whether the controls ask for a first page a list of the first smallPage
// trips answers: the price order unfiltered, at most smallPage trips.
func firstPage(ctl controls) bool {
	return ctl.filter == (trip.Filter{}) && ctl.order == trip.ByPrice && ctl.max > 0 && ctl.max <= smallPage
}

// firstKey is the cache key of the first trips of the list of key.
func firstKey(key string) string { return key + "|first" }

// wireForm is the SOAP form of every trip, made once.
func (l *tripList) wireForm(alliance string) []soap.Trip {
	l.once.Do(func() {
		l.wire = toWireTrips(l.trips, alliance)
		l.made.Store(true)
	})
	return l.wire
}

// wireless reports whether the SOAP form is not made yet.
func (l *tripList) wireless() bool { return !l.made.Load() }

// smallPage is the most trips a page converts by itself rather than through the list's cached
// SOAP form: a cold search for the first page of a 2,700-trip list need not format all of them.
const smallPage = 100

// page returns the trips the controls pick, in their SOAP form, and the count of the whole
// filtered list. A list that will serve one answer only (not cached), or a small page of a list
// whose SOAP form is not made yet, converts just the page.
func (l *tripList) page(ctl controls, alliance string, cached bool) (page []soap.Trip, total int) {
	if !l.whole() && !firstPage(ctl) {
		panic("gather: a list of the first trips asked for more than a first page") // never: see GetTrips
	}
	idx, total := trip.SelectIndex(l.trips, ctl.filter, ctl.order, ctl.max)
	if idx == nil {
		total = l.total // the same for a whole list; the whole list's count for its first trips
	}
	if !cached || (l.wireless() && ctl.max > 0 && ctl.max <= smallPage) {
		if idx == nil {
			return toWireTrips(l.trips[:min(len(l.trips), total, maxOr(ctl.max, total))], alliance), total
		}
		picked := make([]trip.Trip, len(idx))
		for i, k := range idx {
			picked[i] = l.trips[k]
		}
		return toWireTrips(picked, alliance), total
	}
	wire := l.wireForm(alliance)
	if idx == nil {
		return wire[:min(len(wire), maxOr(ctl.max, len(wire)))], total
	}
	page = make([]soap.Trip, len(idx))
	for i, k := range idx {
		page[i] = wire[k]
	}
	return page, total
}

// maxOr is max when it is positive, otherwise all.
func maxOr(max, all int) int {
	if max > 0 {
		return max
	}
	return all
}

// toWireTrips converts trips to their SOAP form; Seats is each flight's seats for sale.
func toWireTrips(trips []trip.Trip, alliance string) []soap.Trip {
	out := make([]soap.Trip, len(trips))
	legs := make([]soap.Leg, 0, 2*len(trips))
	for i, t := range trips {
		first := len(legs)
		for _, f := range t.Legs {
			legs = append(legs, wire.Leg(f, alliance))
		}
		out[i] = soap.Trip{Price: t.Price.String(), Legs: legs[first:len(legs):len(legs)]}
	}
	return out
}

// withSeatsLeft returns trips with each leg's Seats turned from the seats for sale into the seats
// left now, as seats has them, and the version of the seat counters read. The trips may be
// shared by other answers: a trip with a booked leg is copied, never changed; one without is
// handed on as it is (most are: a whole answer's thousands of legs are not copied each time).
func withSeatsLeft(trips []soap.Trip, seats *ledger.Seats) ([]soap.Trip, uint64) {
	out := make([]soap.Trip, len(trips))
	var version uint64
	seats.Reading(func(booked func(flight.Key) int, v uint64) {
		version = v
		for i, t := range trips {
			out[i] = t
			for j, l := range t.Legs {
				if booked(flight.Key{Seller: l.Seller, Number: l.Flight}) > 0 {
					out[i] = soap.Trip{Price: t.Price, Legs: seatsLeft(t.Legs, j, booked)}
					break
				}
			}
		}
	})
	return out, version
}

// seatsLeft copies legs, the first booked one at from, with the seats booked taken off.
func seatsLeft(legs []soap.Leg, from int, booked func(flight.Key) int) []soap.Leg {
	out := slices.Clone(legs)
	for j := from; j < len(out); j++ {
		if b := booked(flight.Key{Seller: out[j].Seller, Number: out[j].Flight}); b > 0 {
			out[j].Seats = max(0, out[j].Seats-b)
		}
	}
	return out
}
