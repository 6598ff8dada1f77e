package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"flightalliance/search/internal/rest"
	"flightalliance/soap"
)

// bookingsPath is where bookings live; a booking is bookingsPath/{id}.
const bookingsPath = "/Services/FlightsSearch/bookings"

// handleReserve answers POST /Services/FlightsSearch/bookings: it validates the request and
// forwards it, with the Idempotency-Key as its RequestID, to the alliance it names. 201 for a new
// booking, 200 for a retry that found the booking its key made before.
func (s *Server) handleReserve(w http.ResponseWriter, r *http.Request) {
	if r.URL.RawQuery != "" {
		s.bookingError(w, opReserve, http.StatusBadRequest, "query string: a booking takes no query parameters (the request is the JSON body)")
		return
	}
	key, err := idempotencyKey(r.Header, true)
	if err != nil {
		s.bookingError(w, opReserve, http.StatusBadRequest, err.Error())
		return
	}
	req, err := decodeBookingRequest(r.Body)
	if err != nil {
		status := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			status = http.StatusRequestEntityTooLarge
		}
		s.bookingError(w, opReserve, status, err.Error())
		return
	}
	reg, ok := s.registration(req.Alliance)
	if !ok {
		s.bookingError(w, opReserve, http.StatusNotFound, fmt.Sprintf("alliance: no alliance %q is registered with this search server", req.Alliance))
		return
	}
	wreq := soap.ReserveRequest{Alliance: req.Alliance, Seats: req.Seats, RequestID: key, Hold: req.Hold}
	for _, l := range req.Legs {
		wreq.Legs = append(wreq.Legs, soap.LegRef{Seller: l.Seller, Flight: l.Flight})
	}
	resp, fail := onAlliance(s, r.Context(), opReserve, reg, func(ctx context.Context, b Booker) (*soap.ReserveResponse, error) {
		return b.Reserve(ctx, wreq)
	})
	if fail != nil {
		s.bookingError(w, opReserve, fail.status, fail.msg)
		return
	}
	var wb *soap.Booking
	if resp != nil {
		wb = &resp.Booking
	}
	b, ok := s.checkedBooking(w, opReserve, reg.Name, wb)
	if !ok {
		return
	}
	status := http.StatusOK
	if resp.Created {
		status = http.StatusCreated
		w.Header().Set("Location", bookingsPath+"/"+url.PathEscape(b.ID))
	}
	s.bookingAnswer(w, opReserve, status, b)
}

// handleGetBooking answers GET /Services/FlightsSearch/bookings/{id}.
func (s *Server) handleGetBooking(w http.ResponseWriter, r *http.Request) {
	s.onBooking(w, r, opGet, func(ctx context.Context, b Booker, id, _ string) (*soap.Booking, error) {
		return b.GetBooking(ctx, id)
	})
}

// handleCancel answers DELETE /Services/FlightsSearch/bookings/{id}: the booking, cancelled.
// Cancelling again answers the same.
func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	s.onBooking(w, r, opCancel, func(ctx context.Context, b Booker, id, key string) (*soap.Booking, error) {
		return b.Cancel(ctx, id, key)
	})
}

// handleConfirm answers POST /Services/FlightsSearch/bookings/{id}/confirm: a held booking,
// confirmed (409 once it expired or was cancelled). Confirming again answers the same.
func (s *Server) handleConfirm(w http.ResponseWriter, r *http.Request) {
	s.onBooking(w, r, opConfirm, func(ctx context.Context, b Booker, id, key string) (*soap.Booking, error) {
		return b.Confirm(ctx, id, key)
	})
}

// onBooking is the part the routes of one booking share: the booking ID names the alliance to
// ask; an ID that does not, or names an alliance this server does not know, is no booking (404).
// The optional Idempotency-Key is passed on as the request ID.
func (s *Server) onBooking(w http.ResponseWriter, r *http.Request, op bookingOp,
	call func(ctx context.Context, b Booker, id, key string) (*soap.Booking, error)) {
	id := chi.URLParam(r, "id")
	if r.URL.RawQuery != "" {
		s.bookingError(w, op, http.StatusBadRequest, "query string: a booking's routes take no query parameters")
		return
	}
	// These routes read no body; one past the limit is refused all the same (API.md, "Bodies"),
	// before the alliance is asked.
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
			s.bookingError(w, op, http.StatusRequestEntityTooLarge, fmt.Sprintf("body: larger than %d bytes (this route takes none)", mbe.Limit))
			return
		}
	}
	var key string
	if op != opGet {
		var err error
		if key, err = idempotencyKey(r.Header, false); err != nil {
			s.bookingError(w, op, http.StatusBadRequest, err.Error())
			return
		}
	}
	alliance, ok := bookingAlliance(id)
	if !ok {
		s.bookingError(w, op, http.StatusNotFound, fmt.Sprintf("no booking %q: a booking ID is <alliance>.<26 characters>", rest.Clip(id)))
		return
	}
	reg, ok := s.registration(alliance)
	if !ok {
		s.bookingError(w, op, http.StatusNotFound, fmt.Sprintf("no booking %q: its alliance %q is not registered with this search server", rest.Clip(id), alliance))
		return
	}
	wb, fail := onAlliance(s, r.Context(), op, reg, func(ctx context.Context, b Booker) (*soap.Booking, error) {
		return call(ctx, b, id, key)
	})
	if fail != nil {
		s.bookingError(w, op, fail.status, fail.msg)
		return
	}
	if b, ok := s.checkedBooking(w, op, reg.Name, wb); ok {
		s.bookingAnswer(w, op, http.StatusOK, b)
	}
}

// handleSeats answers GET /Services/FlightsSearch/seats?alliance=&seller=&flight=: one flight's
// seats as the alliance's system of record has them (a linearizable read, not a machine's copy).
func (s *Server) handleSeats(w http.ResponseWriter, r *http.Request) {
	alliance, seller, flight, err := seatsQuery(r.URL.RawQuery)
	if err != nil {
		s.bookingError(w, opSeats, http.StatusBadRequest, err.Error())
		return
	}
	reg, ok := s.registration(alliance)
	if !ok {
		s.bookingError(w, opSeats, http.StatusNotFound, fmt.Sprintf("alliance: no alliance %q is registered with this search server", alliance))
		return
	}
	ws, fail := onAlliance(s, r.Context(), opSeats, reg, func(ctx context.Context, b Booker) (*soap.GetSeatsResponse, error) {
		return b.GetSeats(ctx, reg.Name, seller, flight)
	})
	if fail != nil {
		s.bookingError(w, opSeats, fail.status, fail.msg)
		return
	}
	seats, err := convertSeats(reg.Name, seller, flight, ws)
	if err != nil {
		s.countError(reg.Name, reg.URI, reasonMalformed, err)
		s.bookingError(w, opSeats, http.StatusBadGateway, fmt.Sprintf("alliance %s answered malformed seats: %v", reg.Name, err))
		return
	}
	s.bookingAnswer(w, opSeats, http.StatusOK, seats)
}

// checkedBooking converts a delegate's booking, answering 502 when it is malformed: the request
// may have taken effect, so the client is told to retry (with the same key, for a reserve).
func (s *Server) checkedBooking(w http.ResponseWriter, op bookingOp, alliance string, wb *soap.Booking) (Booking, bool) {
	b, err := convertBooking(alliance, wb)
	if err != nil {
		s.countError(alliance, "", reasonMalformed, err)
		s.bookingError(w, op, http.StatusBadGateway, fmt.Sprintf("alliance %s answered a malformed booking: %v; %s", alliance, err, op.advice))
		return Booking{}, false
	}
	return b, true
}

func (s *Server) bookingAnswer(w http.ResponseWriter, op bookingOp, status int, v any) {
	s.metrics.bookingRequests.WithLabelValues(op.name, strconv.Itoa(status)).Inc()
	rest.JSON(w, status, v)
}

func (s *Server) bookingError(w http.ResponseWriter, op bookingOp, status int, msg string) {
	s.metrics.bookingRequests.WithLabelValues(op.name, strconv.Itoa(status)).Inc()
	rest.Error(w, status, msg)
}
