package alliance

import (
	"strconv"
	"strings"
	"sync"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
	"flightalliance/coord"
)

// seatBook is this machine's copy of the alliance's booked-seat counters, followed from etcd (a
// listing, then a watch that re-lists when it loses its place): searches show seats left from
// it, a watch event behind the system of record. Bookings themselves never trust it — they read
// the counters in their transaction.
type seatBook struct {
	mu     sync.RWMutex
	booked map[flight.Key]int
	listed bool
}

func newSeatBook() *seatBook { return &seatBook{booked: map[flight.Key]int{}} }

// apply folds one event of the seats folder (names "<seller>/<flight>") into the copy.
func (b *seatBook) apply(ev coord.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	set := func(name string, value []byte) {
		seller, number, ok := strings.Cut(name, "/")
		if !ok {
			return
		}
		n, err := strconv.Atoi(string(value))
		if err != nil {
			return // not a counter: nothing the ledger wrote
		}
		b.booked[flight.Key{Seller: seller, Number: number}] = n
	}
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		set(ev.Name, ev.Value)
	case coord.EventDeleted:
		if seller, number, ok := strings.Cut(ev.Name, "/"); ok {
			delete(b.booked, flight.Key{Seller: seller, Number: number})
		}
	case coord.EventResync:
		b.booked = make(map[flight.Key]int, len(ev.Children))
		for _, ch := range ev.Children {
			set(ch.Name, ch.Value)
		}
		b.listed = true
	}
}

// left is the seats left on a flight of seller, number, with capacity seats for sale.
func (b *seatBook) left(seller, number string, capacity int) int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return booking.Left(flight.Flight{Seats: capacity}, b.booked[flight.Key{Seller: seller, Number: number}])
}

// isListed reports whether the counters have been read once.
func (b *seatBook) isListed() bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.listed
}
