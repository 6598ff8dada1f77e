// Command flights is the command users type: `flights search` asks a search server and prints
// the trips as a table sorted by price (or the raw JSON) — optionally non-stop only (--nonstop),
// up to a price (--max-price), in another order (--sort duration|departure|arrival), or one page
// of the list (--limit, --offset), always saying how many trips the whole list has; `flights book`, `booking`, `cancel` and
// `confirm` make and manage bookings through the search server's REST API, `flights seats` shows a
// flight's seats; and `flights generate` writes flight data files (one CSV per seller) for airline
// servers to load.
//
// An https --server is verified with the system's roots, or with --ca FILE with that CA only (a
// search server started with --tls-cert); the client presents no certificate.
//
// It is flag parsing and wiring only: validation of data belongs to alliance/flight, the answer's
// shape to search. It must not compute or re-sort trips, nor retry a booking by itself; it prints
// what the server answered. `flights book` always sends an Idempotency-Key (a random one, printed,
// unless --key gives it), so that a user can retry a booking whose outcome is unknown safely.
//
// Exit codes: 0 ok, 1 bad usage or bad input (the message names the flag) or the server refused
// (a 4xx: unknown, conflict, ... with the server's message), 2 the search server is unreachable,
// failed, or gave an incomplete answer.
package main
