// Package booking is the pure core of bookings (docs/api.md, "Bookings"; docs/design.md, "Bookings"): it
// checks a reservation request field by field, tells whether its legs form a trip, decides
// whether the seats booked leave room for it, and defines the records the alliance keeps in
// etcd — the booking, its idempotency record and its hold. It does no I/O: the airline server's
// ledger reads the counters, asks Decide, and writes what it decided in one etcd transaction.
package booking
