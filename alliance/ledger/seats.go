package ledger

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
	"flightalliance/coord"
)

// Seats is this machine's copy of the alliance's booked-seat counters, followed from etcd (a
// listing, then a watch that re-lists when it loses its place): searches show seats left from
// it, a watch event behind the system of record. Bookings themselves never trust it — they read
// the counters in their transaction.
type Seats struct {
	dir    string
	mirror *coord.Mirror[map[flight.Key]int]
	// version counts the events folded into the copy (changed under the mirror's lock): one
	// version, one state of the counters, so an answer can say which seats left it showed.
	version atomic.Uint64
}

// NewSeats returns an empty copy of alliance's counters; Follow fills it.
func NewSeats(alliance string) *Seats {
	s := &Seats{dir: newKeys(alliance).seats()}
	s.mirror = coord.NewMirror(map[flight.Key]int{}, func(booked *map[flight.Key]int, ev coord.Event) func() {
		s.version.Add(1)
		return foldSeat(booked, ev)
	})
	return s
}

// Follow keeps the copy until ctx ends.
func (s *Seats) Follow(ctx context.Context, t *coord.Tree, log *slog.Logger) {
	s.mirror.Follow(ctx, t, s.dir, coord.WatchOptions{Recursive: true}, log)
}

// Apply folds one event of the seats folder into the copy (Follow applies the folder's).
func (s *Seats) Apply(ev coord.Event) { s.mirror.Apply(ev) }

// foldSeat folds one event of the seats folder (names "<seller>/<flight>") into the counters.
func foldSeat(booked *map[flight.Key]int, ev coord.Event) func() {
	set := func(name string, value []byte) {
		seller, number, ok := strings.Cut(name, "/")
		if !ok {
			return
		}
		n, err := strconv.Atoi(string(value))
		if err != nil {
			return // not a counter: nothing the ledger wrote
		}
		(*booked)[flight.Key{Seller: seller, Number: number}] = n
	}
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		set(ev.Name, ev.Value)
	case coord.EventDeleted:
		if seller, number, ok := strings.Cut(ev.Name, "/"); ok {
			delete(*booked, flight.Key{Seller: seller, Number: number})
		}
	case coord.EventResync:
		*booked = make(map[flight.Key]int, len(ev.Children))
		for _, ch := range ev.Children {
			set(ch.Name, ch.Value)
		}
	}
	return nil
}

// Left is the seats left on a flight of seller, number, with capacity seats for sale.
func (s *Seats) Left(seller, number string, capacity int) (left int) {
	s.mirror.Read(func(booked *map[flight.Key]int) {
		left = booking.Left(flight.Flight{Seats: capacity}, (*booked)[flight.Key{Seller: seller, Number: number}])
	})
	return left
}

// Listed reports whether the counters have been read once.
func (s *Seats) Listed() bool { return s.mirror.Listed() }

// Reading runs f with a lookup of the seats booked on a flight, all from one state of the copy
// (for filling many legs at once), and that state's version; f must not call back into s.
func (s *Seats) Reading(f func(booked func(flight.Key) int, version uint64)) {
	s.mirror.Read(func(booked *map[flight.Key]int) {
		f(func(k flight.Key) int { return (*booked)[k] }, s.version.Load())
	})
}

// Version is the version of the copy's current state: the same version, the same counters.
func (s *Seats) Version() uint64 { return s.version.Load() }
