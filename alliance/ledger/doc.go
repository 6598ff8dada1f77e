// Package ledger is an alliance's bookings: the record in its etcd (bookings, booked-seat
// counters, idempotency records, open holds), the operations on it (reserve, cancel, confirm,
// look up, count), this machine's followed copies of the counters and of the open holds, and the
// sweep that releases holds nobody confirmed in time.
//
// Every change is one etcd transaction guarded by what it read, so nothing is locked and a seat
// is never sold twice; an outcome that is not certain is reported as such (OutcomeError) and
// settled by the same request again, which finds its idempotency record (docs/design.md, "Bookings").
// Because the guard settles it, a change first reads from this machine's own etcd member, without
// a round trip to the leader; an answer that writes nothing (a refusal, a replay) is read again
// linearizably before it is given, and lookups and seat counts always are (attempt.go).
//
// It speaks the booking domain (alliance/booking, alliance/flight) and returns its own errors:
// it must not know SOAP, HTTP or placement — the airline server maps its errors to faults and
// tells it where the flights are (FlightFinder).
package ledger
