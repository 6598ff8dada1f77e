package alliance

import (
	"context"
	"errors"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/wire"
	"flightalliance/soap"
)

// The booking operations of SellerService: each turns its SOAP request into a call of the
// booking service (alliance/ledger) and its answer or error into a SOAP response or fault.

// reserve is SellerService.reserve: every seat of every leg in one etcd transaction, or none.
func (m *Machine) reserve(ctx context.Context, req *soap.ReserveRequest) (*soap.ReserveResponse, error) {
	hold, err := booking.ParseHold(req.Hold)
	if err != nil {
		return nil, m.bookingFault("reserve", &ledger.RefusedError{Reason: ledger.BadRequest, Msg: err.Error()})
	}
	r := booking.Request{Alliance: req.Alliance, Seats: req.Seats, Key: req.RequestID, Hold: hold}
	for _, l := range req.Legs {
		r.Legs = append(r.Legs, booking.LegRef{Seller: l.Seller, Flight: l.Flight})
	}
	res, err := m.bookings.Reserve(ctx, r)
	if err != nil {
		return nil, m.bookingFault("reserve", err)
	}
	m.metrics.bookings.WithLabelValues("reserve", "ok").Inc()
	if res.Created {
		m.log.Info("booked", "booking", res.Record.ID, "seats", res.Record.Seats, "status", res.Record.Status)
	}
	return &soap.ReserveResponse{Booking: m.wireBooking(res.Record, res.Booked), Created: res.Created}, nil
}

// cancel is SellerService.cancel: the booking's seats are for sale again; cancelling again, or
// cancelling an expired hold, answers the booking as it is.
func (m *Machine) cancel(ctx context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
	return m.answerBooking("cancel", true)(m.bookings.Cancel(ctx, req.BookingID))
}

// confirm is SellerService.confirm: a hold before its expiry becomes a confirmed booking.
func (m *Machine) confirm(ctx context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
	return m.answerBooking("confirm", true)(m.bookings.Confirm(ctx, req.BookingID))
}

// getBooking is SellerService.getBooking: the booking as the system of record has it now.
func (m *Machine) getBooking(ctx context.Context, req *soap.BookingRequest) (*soap.BookingResponse, error) {
	return m.answerBooking("getBooking", false)(m.bookings.Get(ctx, req.BookingID))
}

// answerBooking makes the answer of op from the booking service's result; count says whether a
// success is counted in the bookings metric.
func (m *Machine) answerBooking(op string, count bool) func(booking.Record, error) (*soap.BookingResponse, error) {
	return func(rec booking.Record, err error) (*soap.BookingResponse, error) {
		if err != nil {
			return nil, m.bookingFault(op, err)
		}
		if count {
			m.metrics.bookings.WithLabelValues(op, "ok").Inc()
		}
		return &soap.BookingResponse{Booking: m.wireBooking(rec, nil)}, nil
	}
}

// getSeats is SellerService.getSeats: one flight's seats, the booked count read from etcd.
func (m *Machine) getSeats(ctx context.Context, req *soap.GetSeatsRequest) (*soap.GetSeatsResponse, error) {
	n, err := m.bookings.Seats(ctx, req.Alliance, req.Seller, req.Flight)
	if err != nil {
		return nil, m.bookingFault("getSeats", err)
	}
	return &soap.GetSeatsResponse{Seller: req.Seller, Flight: req.Flight, Capacity: n.Capacity,
		Booked: n.Booked, Left: n.Left}, nil
}

// bookingFault turns an error of the booking service into the fault the caller sees, and counts
// it by kind.
func (m *Machine) bookingFault(op string, err error) error {
	var (
		f        *soap.Fault
		refused  *ledger.RefusedError
		field    *booking.FieldError
		conflict *booking.ConflictError
		outcome  *ledger.OutcomeError
	)
	kind := "bad-request"
	switch {
	case errors.As(err, &f):
	case errors.As(err, &refused) && refused.Reason == ledger.NotFound:
		f = soap.KindFault(soap.KindNotFound, "%s", refused.Msg)
	case errors.As(err, &refused) && refused.Reason == ledger.OtherAlliance:
		f = soap.KindFault(soap.KindOtherAlliance, "%s", refused.Msg)
	case errors.As(err, &refused) && refused.Reason == ledger.Unavailable:
		f = soap.KindFault(soap.KindUnavailable, "%s", refused.Msg)
	case errors.As(err, &refused):
		f = soap.ClientFault("%s", refused.Msg)
	case errors.As(err, &field):
		f = soap.ClientFault("%v", field)
	case errors.As(err, &conflict):
		f = soap.KindFault(soap.KindConflict, "%s", conflict.Reason)
	case errors.Is(err, ledger.ErrKeyReused):
		f = soap.KindFault(soap.KindKeyReused, "RequestID: this idempotency key made a booking with a different request: use a new key")
	case errors.Is(err, ledger.ErrNoBooking):
		f = soap.KindFault(soap.KindNotFound, "BookingID: %v", err)
	case errors.As(err, &outcome) && outcome.Unknown:
		m.log.Warn("booking outcome unknown", "op", op, "err", err)
		f = soap.KindFault(soap.KindUnknown, "%s: the alliance did not confirm the outcome in time (%v): retry with the same key — it answers the booking if it was made, and takes no seat twice", op, outcome.Err)
	case errors.As(err, &outcome):
		m.log.Warn("booking refused: the alliance's etcd cannot commit now", "op", op, "err", err)
		f = soap.KindFault(soap.KindUnavailable, "%s: the alliance cannot take bookings now (%v): nothing was changed; retry with the same key", op, outcome.Err)
	default:
		m.log.Error("booking failed", "op", op, "err", err)
		f, kind = soap.ServerFault("%s failed on this machine", op), "error"
	}
	if f.Detail != "" {
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
			Arrival: l.Arrival, Price: l.Price, Seats: m.seats.Left(l.Seller, l.Flight, l.Capacity)}
		if n, ok := booked[l.Key()]; ok {
			f.Seats = booking.Left(flight.Flight{Seats: l.Capacity}, n)
		}
		w.Legs = append(w.Legs, wire.Leg(f, r.Alliance))
	}
	return w
}
