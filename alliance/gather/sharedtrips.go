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
// Legs are told apart by their refs (trip.Trip.Refs) when every trip has them, as the trips of one
// Build or Cheapest do: a slice indexed by ref, no hashing. Otherwise a flight is one leg by its
// key (flight numbers are unique within a seller); should two flights of one key differ, each gets
// its own leg.
func toSharedTrips(trips []trip.Trip, alliance string) sharedTrips {
	n := 0
	for _, t := range trips {
		n += len(t.Legs)
	}
	legOf := newLegIndex(trips)
	prices := priceTexts(trips)
	out := sharedTrips{trips: make([]soap.Trip, len(trips))}
	indexes := make([]int, 0, n)
	for i := range trips {
		t := &trips[i]
		first := len(indexes)
		for j := range t.Legs {
			k, ok := legOf.find(t, j)
			if !ok {
				k = len(out.legs)
				legOf.add(t, j, k)
				out.legs = append(out.legs, wire.Leg(t.Legs[j], alliance))
			}
			indexes = append(indexes, k)
		}
		out.trips[i] = soap.Trip{Price: prices[i], LegIndexes: indexes[first:len(indexes):len(indexes)]}
	}
	return out
}

// legIndex finds the shared leg of a trip's leg: by ref (byRef[ref] is the leg's index plus one)
// when every trip has refs, else by key.
type legIndex struct {
	byRef   []int32
	byKey   map[flight.Key]int
	flights []*flight.Flight // by leg index, when by key
}

func newLegIndex(trips []trip.Trip) *legIndex {
	top := int32(0)
	for i := range trips {
		for j := range trips[i].Legs {
			r := refOf(&trips[i], j)
			if r <= 0 {
				return &legIndex{byKey: make(map[flight.Key]int, min(2*len(trips), 1024))}
			}
			top = max(top, r)
		}
	}
	return &legIndex{byRef: make([]int32, top+1)}
}

// refOf is the ref of leg j of t (0: none).
func refOf(t *trip.Trip, j int) int32 {
	if j >= len(t.Refs) {
		return 0
	}
	return t.Refs[j]
}

// find is the index of the shared leg of leg j of t, if it has one yet.
func (x *legIndex) find(t *trip.Trip, j int) (int, bool) {
	if x.byKey == nil {
		k := x.byRef[t.Refs[j]]
		return int(k) - 1, k > 0
	}
	f := &t.Legs[j]
	k, ok := x.byKey[flight.Key{Seller: f.Seller, Number: f.Number}]
	return k, ok && *x.flights[k] == *f
}

// add records k as the index of the shared leg of leg j of t.
func (x *legIndex) add(t *trip.Trip, j, k int) {
	if x.byKey == nil {
		x.byRef[t.Refs[j]] = int32(k) + 1
		return
	}
	f := &t.Legs[j]
	if _, ok := x.byKey[f.Key()]; !ok { // a second flight of one key keeps the first's entry
		x.byKey[f.Key()] = k
	}
	x.flights = append(x.flights, f)
}

// priceTexts is the text of every trip's price, written in one allocation: the texts are
// substrings of one string (a whole list's thousands of prices are one object, not thousands).
func priceTexts(trips []trip.Trip) []string {
	buf := make([]byte, 0, 8*len(trips))
	ends := make([]int, len(trips))
	for i := range trips {
		buf = trips[i].Price.AppendTo(buf)
		ends[i] = len(buf)
	}
	all := string(buf)
	texts := make([]string, len(trips))
	start := 0
	for i, end := range ends {
		texts[i], start = all[start:end], end
	}
	return texts
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
