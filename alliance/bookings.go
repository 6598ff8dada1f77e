package alliance

import (
	"context"
	"errors"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
	"flightalliance/soap"
)

// bookingBudget bounds one booking operation on this machine, retries included: within the
// search server's wait for one machine (--delegate-timeout, 3 s by default), so that a machine
// cut off from the quorum says so in time and the search server asks the next one with the same
// key, within its --booking-timeout.
const bookingBudget = 2500 * time.Millisecond

// reserve is SellerService.reserve: every seat of every leg in one etcd transaction, or none.
func (m *Machine) reserve(ctx context.Context, req *soap.ReserveRequest) (*soap.ReserveResponse, error) {
	if err := m.bookable(); err != nil {
		return nil, err
	}
	hold, err := booking.ParseHold(req.Hold)
	if err != nil {
		return nil, soap.ClientFault("%v", err)
	}
	r := booking.Request{Alliance: req.Alliance, Seats: req.Seats, Key: req.RequestID, Hold: hold}
	for _, l := range req.Legs {
		r.Legs = append(r.Legs, booking.LegRef{Seller: l.Seller, Flight: l.Flight})
	}
	if err := r.Validate(); err != nil {
		return nil, soap.ClientFault("%v", err)
	}
	if r.Alliance != m.cfg.Alliance {
		return nil, soap.KindFault(soap.KindNotFound, "alliance: this is alliance %s, not %s", m.cfg.Alliance, r.Alliance)
	}
	ctx, cancel := context.WithTimeout(ctx, bookingBudget)
	defer cancel()
	legs, err := m.bookedFlights(ctx, r.Legs)
	if err != nil {
		return nil, m.bookingFault("reserve", err)
	}
	if err := booking.CheckTrip(legs, m.cfg.MinConnection); err != nil {
		return nil, m.bookingFault("reserve", err)
	}
	rec, booked, created, err := m.ledger.reserve(ctx, r, legs)
	if err != nil {
		return nil, m.bookingFault("reserve", err)
	}
	m.metrics.bookings.WithLabelValues("reserve", "ok").Inc()
	if created {
		m.log.Info("booked", "booking", rec.ID, "seats", rec.Seats, "status", rec.Status)
	}
	return &soap.ReserveResponse{Booking: m.wireBooking(rec, booked), Created: created}, nil
}

// cancel is SellerService.cancel: the booking's seats are for sale again; cancelling again, or
// cancelling an expired hold, answers the booking as it is.
func (m *Machine) cancel(ctx context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
	return m.endBooking(ctx, "cancel", req, func(r booking.Record) (booking.Ending, string, error) {
		return booking.Cancel(r), booking.Cancelled, nil
	})
}

// confirm is SellerService.confirm: a hold before its expiry becomes a confirmed booking.
func (m *Machine) confirm(ctx context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
	return m.endBooking(ctx, "confirm", req, func(r booking.Record) (booking.Ending, string, error) {
		ending, err := booking.ConfirmAt(r, m.ledger.now())
		return ending, booking.Expired, err
	})
}

func (m *Machine) endBooking(ctx context.Context, op string, req *soap.BookingRequest,
	decide func(booking.Record) (booking.Ending, string, error)) (*soap.BookingResponse, error) {
	if err := m.checkBooking(req.BookingID); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, bookingBudget)
	defer cancel()
	rec, err := m.ledger.end(ctx, req.BookingID, decide)
	if err != nil {
		return nil, m.bookingFault(op, err)
	}
	m.metrics.bookings.WithLabelValues(op, "ok").Inc()
	return &soap.BookingResponse{Booking: m.wireBooking(rec, nil)}, nil
}

// getBooking is SellerService.getBooking: the booking as the system of record has it now.
func (m *Machine) getBooking(ctx context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
	if err := m.checkBooking(req.BookingID); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, bookingBudget)
	defer cancel()
	rec, err := m.ledger.lookup(ctx, req.BookingID)
	if err != nil {
		return nil, m.bookingFault("getBooking", err)
	}
	return &soap.BookingResponse{Booking: m.wireBooking(rec, nil)}, nil
}

// getSeats is SellerService.getSeats: one flight's seats, the booked count read from etcd.
func (m *Machine) getSeats(ctx context.Context, req *soap.GetSeatsRequest) (*soap.GetSeatsResponse, error) {
	if !flight.ValidSeller(req.Seller) {
		return nil, soap.ClientFault("Seller: %q is not a seller code", req.Seller)
	}
	if !flight.ValidFlightNumber(req.Flight) {
		return nil, soap.ClientFault("Flight: %q is not a flight number", req.Flight)
	}
	if err := m.bookable(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, bookingBudget)
	defer cancel()
	legs, err := m.bookedFlights(ctx, []booking.LegRef{{Seller: req.Seller, Flight: req.Flight}})
	if err != nil {
		return nil, m.bookingFault("getSeats", err)
	}
	n, err := m.ledger.booked(ctx, legs[0].Key())
	if err != nil {
		return nil, m.bookingFault("getSeats", err)
	}
	return &soap.GetSeatsResponse{Seller: req.Seller, Flight: req.Flight, Capacity: legs[0].Seats,
		Booked: n, Left: booking.Left(legs[0], n)}, nil
}

// bookable refuses bookings until this machine has an etcd member and knows the alliance's
// sellers: unavailable, nothing done.
func (m *Machine) bookable() error {
	if m.member.Load() == nil || !m.catalog.isListed() || !m.view.isListed() {
		return soap.KindFault(soap.KindUnavailable, "not ready: this machine has not read the alliance's state yet; nothing was changed")
	}
	return nil
}

// checkBooking refuses an ID that is not one of this alliance's bookings, or a machine not ready.
func (m *Machine) checkBooking(id string) error {
	if err := m.checkBookingID(id); err != nil {
		return err
	}
	return m.bookable()
}

// checkBookingID refuses an ID that is not one of this alliance's bookings: not found.
func (m *Machine) checkBookingID(id string) error {
	if id == "" {
		return soap.ClientFault("BookingID: missing")
	}
	if a, ok := booking.AllianceOf(id); !ok || a != m.cfg.Alliance {
		return soap.KindFault(soap.KindNotFound, "BookingID: no booking %q in alliance %s", clipID(id), m.cfg.Alliance)
	}
	return nil
}

// bookingFault turns a booking error into the fault the caller sees, and counts it.
func (m *Machine) bookingFault(op string, err error) error {
	var (
		f        *soap.Fault
		field    *booking.FieldError
		conflict *booking.ConflictError
		outcome  *outcomeError
	)
	kind := "error"
	switch {
	case errors.As(err, &f):
		kind = f.Detail
	case errors.As(err, &field):
		f = soap.ClientFault("%v", field)
		kind = "bad-request"
	case errors.As(err, &conflict):
		f = soap.KindFault(soap.KindConflict, "%s", conflict.Reason)
	case errors.Is(err, errKeyReused):
		f = soap.KindFault(soap.KindKeyReused, "RequestID: this idempotency key made a booking with a different request: use a new key")
	case errors.Is(err, errNoBooking):
		f = soap.KindFault(soap.KindNotFound, "BookingID: %v", err)
	case errors.As(err, &outcome) && outcome.Unknown:
		m.log.Warn("booking outcome unknown", "op", op, "err", err)
		f = soap.KindFault(soap.KindUnknown, "%s: the alliance did not confirm the outcome in time (%v): retry with the same key — it answers the booking if it was made, and takes no seat twice", op, outcome.Err)
	case errors.As(err, &outcome):
		m.log.Warn("booking refused: the alliance's etcd cannot commit now", "op", op, "err", err)
		f = soap.KindFault(soap.KindUnavailable, "%s: the alliance cannot take bookings now (%v): nothing was changed; retry with the same key", op, outcome.Err)
	default:
		m.log.Error("booking failed", "op", op, "err", err)
		f = soap.ServerFault("%s failed on this machine", op)
	}
	if kind == "error" && f.Detail != "" {
		kind = f.Detail
	}
	m.metrics.bookings.WithLabelValues(op, kind).Inc()
	return f
}

// wireBooking is a booking on the wire, each leg showing the seats left on its flight: from
// booked when it has the flight (the counters a booking just wrote), else from this machine's
// copy of the counters.
func (m *Machine) wireBooking(r booking.Record, booked booking.Counts) soap.Booking {
	w := soap.Booking{ID: r.ID, Alliance: r.Alliance, Seats: r.Seats, Price: r.Price.String(), Status: r.Status,
		CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339)}
	if !r.ExpiresAt.IsZero() {
		w.ExpiresAt = r.ExpiresAt.UTC().Format(time.RFC3339Nano)
	}
	for _, l := range r.Legs {
		f := flight.Flight{Number: l.Flight, Seller: l.Seller, Src: l.Src, Dst: l.Dst, Departure: l.Departure,
			Arrival: l.Arrival, Price: l.Price, Seats: m.seats.left(l.Seller, l.Flight, l.Capacity)}
		if n, ok := booked[l.Key()]; ok {
			f.Seats = booking.Left(flight.Flight{Seats: l.Capacity}, n)
		}
		w.Legs = append(w.Legs, toLeg(f, r.Alliance))
	}
	return w
}

func clipID(id string) string {
	if len(id) > 80 {
		return id[:80] + "…"
	}
	return id
}
