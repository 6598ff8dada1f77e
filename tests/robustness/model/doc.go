// Package model is the linearizability model of bookings, for porcupine, and the history the
// robustness tests record of concurrent clients' operations to check against it.
//
// The model takes one flight at a time (porcupine partitions the history by flight, so each check
// stays small). A flight's state is the seats booked on it and the bookings the history knows to
// be live, with their seats:
//
//   - reserve(k) answered with a booking needs booked+k ≤ capacity and takes the seats;
//   - reserve(k) answered 409 needs booked+k > capacity and changes nothing;
//   - cancel(id) gives the booking's seats back, once: cancelling a cancelled booking is a no-op;
//     a 404 for a booking that was acknowledged is a lost booking, never legal;
//   - read-seats must answer exactly the seats booked.
//
// An operation whose outcome stayed unknown (timeouts, 503s, resets until the client's deadline)
// returns at math.MaxInt64, as porcupine wants, and steps nondeterministically: applied or not.
// A reserve applied without its client learning the id adds seats that nobody can cancel.
//
// It starts no process and reads no network: its tests are unit tests, run under the race
// detector with the other unit packages.
package model
