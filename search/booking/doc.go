// Package booking is the search server's booking routes: POST /Services/FlightsSearch/bookings
// (reserve, with an Idempotency-Key), GET, DELETE and POST …/{id}/confirm of one booking, and
// GET /Services/FlightsSearch/seats. It validates each request at the edge (request.go), forwards
// it to the machines of the alliance it names, one after the other (route.go: the delegate, its
// alternates, then its fallbacks while none of those answered), and checks and renders what the
// alliance answered (booking.go).
//
// It holds no booking: the alliance's system of record does, and answers for it. It must not ask
// two machines at once about one request, nor retry a request on a machine that may have run
// it but through its idempotency key. It knows the search server only through Config: the
// registrations, the clients of the machines, its deadlines and what to count.
package booking
