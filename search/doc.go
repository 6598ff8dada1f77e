// Package search is the search server: it keeps the registrations of the alliances' delegates,
// answers GET /Services/FlightsSearch/flight by asking every registered delegate (SOAP getTrips)
// in parallel, and merges their trips into one answer sorted as docs/api.md says. It also forwards
// bookings to the alliance a booking names, and serves the web console.
//
// The server is cut by concern into packages, each with its own rules:
//   - search (this package): the HTTP server and its routes, parsing a search's query,
//     admission (--max-searches) and the turn gate of ordered searches, the fan-out to the
//     delegates (hedged over their alternates, shared between equal searches), conditional
//     searches with the alliances' ETags, the registration handlers and who may register (trust).
//   - search/registry: the registrations themselves — refresh, staleness, fallbacks.
//   - search/merge: the pure core of an answer — the delegates' answers and the query in, the
//     answer (and its JSON) out; no HTTP, clock or I/O.
//   - search/booking: the booking routes, forwarded to an alliance's machines one after the other.
//   - search/console: the web console's page, script and style sheet, and the live picture of
//     the alliances it draws.
//   - search/internal/rest (JSON answers, bad input), search/internal/delegatecall (why a call
//     to a machine failed): what those packages share.
//
// The rules the search server shares with the airline servers (trip orders, prices, airport and
// seller codes) are the contract package's.
//
// Where the cut is not the obvious one: the answer's types (Answer, Trip, Leg…) are merge's,
// since merge makes them, and the server only writes them out (answer_write.go); the types its
// clients read are named here too (exported.go), so that a client imports search alone. The
// registration handlers stay here, not in registry: they are HTTP and trust, which the registry
// must not know. The tests of the console and of bookings over the server's HTTP stay here,
// where the server is; their packages test what they do alone.
//
// Registrations are soft state: a delegate re-registers every few seconds and a registration it
// stops refreshing expires after the configured TTL. Until then it is asked, and when it does not
// answer the search says so (complete: false); an answer is never silently shorter.
//
// The package must not hold flight data, compute trips or reach into an alliance: it only talks
// to delegates through the Delegate interface (the soap client in production). It validates
// every input from outside (query parameters, registration bodies and delegates' answers) and
// never answers 500 to bad input.
package search
