package ledger

import (
	"context"
	"slices"
	"sync"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// Budget bounds one booking operation on a machine, retries included: within the search
// server's wait for one machine (--delegate-timeout, 3 s by default), so that a machine cut off
// from the quorum says so in time and the search server asks the next one with the same key,
// within its --booking-timeout.
const Budget = 2500 * time.Millisecond

// FlightFinder tells the booking service where the alliance's flights are.
type FlightFinder interface {
	// Sellers are the sellers the alliance knows.
	Sellers() []string
	// Flights looks flights of one known seller up by number, as the alliance's data has them,
	// with at most one call to each holder it asks: a number the seller does not have is left
	// out; an error (a *RefusedError, Unavailable) when no holder answered.
	Flights(ctx context.Context, seller string, numbers []string) (map[string]flight.Flight, error)
}

// Service is the booking API of one machine of an alliance: it checks a request, finds its
// flights, and changes the ledger. Errors: *RefusedError, *booking.FieldError,
// *booking.ConflictError, ErrKeyReused, ErrNoBooking, *OutcomeError.
type Service struct {
	ledger        *Ledger
	alliance      string
	minConnection time.Duration
	flights       FlightFinder
	holds         *Holds      // when holds fall due, on this machine's clock
	ready         func() bool // the machine has read the alliance's state
}

// NewService returns the booking service of alliance over l; holds tells when holds fall due;
// ready reports whether this machine has read the alliance's state (until then every request is
// refused as unavailable).
func NewService(l *Ledger, alliance string, minConnection time.Duration, flights FlightFinder, holds *Holds, ready func() bool) *Service {
	return &Service{ledger: l, alliance: alliance, minConnection: minConnection, flights: flights, holds: holds, ready: ready}
}

// Reserved is what a reservation came to: the booking, the counters of its legs as it left them
// (nil when the key had made the booking before), and whether it was made now.
type Reserved struct {
	Record  booking.Record
	Booked  booking.Counts
	Created bool
}

// Reserve books every seat of every leg of r in one transaction, or none.
// A request that is bad in itself is refused naming its field whether or not this machine is
// ready (any machine would refuse it the same), as checkID does for an ID.
func (s *Service) Reserve(ctx context.Context, r booking.Request) (Reserved, error) {
	if err := r.Validate(); err != nil {
		return Reserved{}, err
	}
	if r.Alliance != s.alliance {
		return Reserved{}, refuse(OtherAlliance, "alliance: this is alliance %s, not %q", s.alliance, clipID(r.Alliance))
	}
	if err := s.checkReady(); err != nil {
		return Reserved{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, Budget)
	defer cancel()
	// The ledger looks the flights up while its first read is under way.
	rec, booked, created, err := s.ledger.reserve(ctx, r, func(ctx context.Context) ([]flight.Flight, error) {
		legs, err := s.legFlights(ctx, r.Legs)
		if err != nil {
			return nil, err
		}
		if err := booking.CheckTrip(legs, s.minConnection); err != nil {
			return legs, err
		}
		return legs, booking.CheckPrice(legs, r.Seats)
	})
	return Reserved{Record: rec, Booked: booked, Created: created}, err
}

// Cancel gives a booking's seats back; cancelling again, or cancelling an expired hold, answers
// the booking as it is.
func (s *Service) Cancel(ctx context.Context, id string) (booking.Record, error) {
	return s.end(ctx, id, func(r booking.Record) (booking.Ending, string, error) {
		return booking.Cancel(r), booking.Cancelled, nil
	})
}

// Confirm makes a hold before its expiry a confirmed booking: before it falls due on this
// machine's clock (Holds.Expired).
func (s *Service) Confirm(ctx context.Context, id string) (booking.Record, error) {
	return s.end(ctx, id, func(r booking.Record) (booking.Ending, string, error) {
		ending, err := booking.Confirming(r, s.holds.Expired(r, s.ledger.now()))
		return ending, booking.Expired, err
	})
}

func (s *Service) end(ctx context.Context, id string, decide func(booking.Record) (booking.Ending, string, error)) (booking.Record, error) {
	if err := s.checkID(id); err != nil {
		return booking.Record{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, Budget)
	defer cancel()
	return s.ledger.end(ctx, id, decide)
}

// Get reads a booking as the system of record has it now.
func (s *Service) Get(ctx context.Context, id string) (booking.Record, error) {
	if err := s.checkID(id); err != nil {
		return booking.Record{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, Budget)
	defer cancel()
	return s.ledger.lookup(ctx, id)
}

// SeatCount is one flight's seats: for sale, booked (read from etcd), left.
type SeatCount struct {
	Capacity, Booked, Left int
}

// Seats counts one flight's seats of alliance ("" for this one, whichever it is).
func (s *Service) Seats(ctx context.Context, alliance, seller, number string) (SeatCount, error) {
	if alliance != "" && alliance != s.alliance {
		return SeatCount{}, refuse(OtherAlliance, "Alliance: this is alliance %s, not %q", s.alliance, clipID(alliance))
	}
	if !flight.ValidSeller(seller) {
		return SeatCount{}, refuse(BadRequest, "Seller: %q is not a seller code", seller)
	}
	if !flight.ValidFlightNumber(number) {
		return SeatCount{}, refuse(BadRequest, "Flight: %q is not a flight number", number)
	}
	if err := s.checkReady(); err != nil {
		return SeatCount{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, Budget)
	defer cancel()
	legs, err := s.legFlights(ctx, []booking.LegRef{{Seller: seller, Flight: number}})
	if err != nil {
		return SeatCount{}, err
	}
	n, err := s.ledger.booked(ctx, legs[0].Key())
	if err != nil {
		return SeatCount{}, err
	}
	return SeatCount{Capacity: legs[0].Seats, Booked: n, Left: booking.Left(legs[0], n)}, nil
}

// legFlights finds the flights a reservation names, in its order: one lookup per seller, all at
// once, so that a connection of two sellers held elsewhere waits for one round trip, not two. A
// seller the alliance does not know, or a flight its seller does not have, is refused as not
// found, naming it; when several legs fail, the first one's error is told.
func (s *Service) legFlights(ctx context.Context, legs []booking.LegRef) ([]flight.Flight, error) {
	known := s.flights.Sellers()
	var sellers []string
	numbers := map[string][]string{}
	for i, l := range legs {
		if !slices.Contains(known, l.Seller) {
			return nil, refuse(NotFound, "legs[%d].seller: %s is not a seller of alliance %s", i, l.Seller, s.alliance)
		}
		if _, ok := numbers[l.Seller]; !ok {
			sellers = append(sellers, l.Seller)
		}
		numbers[l.Seller] = append(numbers[l.Seller], l.Flight)
	}
	type answer struct {
		flights map[string]flight.Flight
		err     error
	}
	answers := make([]answer, len(sellers))
	var asking sync.WaitGroup
	for i, seller := range sellers {
		asking.Go(func() {
			answers[i].flights, answers[i].err = s.flights.Flights(ctx, seller, numbers[seller])
		})
	}
	asking.Wait()
	out := make([]flight.Flight, len(legs))
	for i, l := range legs {
		a := answers[slices.Index(sellers, l.Seller)]
		if a.err != nil {
			return nil, a.err
		}
		f, found := a.flights[l.Flight]
		if !found {
			return nil, refuse(NotFound, "legs[%d].flight: seller %s has no flight %s", i, l.Seller, l.Flight)
		}
		out[i] = f
	}
	return out, nil
}

// checkReady refuses requests until this machine has read the alliance's state.
func (s *Service) checkReady() error {
	if !s.ready() {
		return refuse(Unavailable, "not ready: this machine has not read the alliance's state yet; nothing was changed")
	}
	return nil
}

// checkID refuses an ID that is not one of this alliance's bookings, or a machine not ready.
func (s *Service) checkID(id string) error {
	if id == "" {
		return refuse(BadRequest, "BookingID: missing")
	}
	a, ok := booking.AllianceOf(id)
	switch {
	case !ok:
		return refuse(NotFound, "BookingID: no booking %q in alliance %s", clipID(id), s.alliance)
	case a != s.alliance:
		return refuse(OtherAlliance, "BookingID: %q is a booking of alliance %s; this is alliance %s", clipID(id), a, s.alliance)
	}
	return s.checkReady()
}

func clipID(id string) string {
	if len(id) > 80 {
		return id[:80] + "…"
	}
	return id
}
