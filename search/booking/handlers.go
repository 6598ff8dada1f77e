package booking

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"flightalliance/search/internal/delegatecall"
	"flightalliance/search/internal/rest"
	"flightalliance/soap"
)

// Path is where bookings live; a booking is Path/{id}.
const Path = "/Services/FlightsSearch/bookings"

// SeatsPath is where a flight's seats are read.
const SeatsPath = "/Services/FlightsSearch/seats"

// Reserve answers POST /Services/FlightsSearch/bookings: it validates the request and
// forwards it, with the Idempotency-Key as its RequestID, to the alliance it names. 201 for a new
// booking, 200 for a retry that found the booking its key made before.
func (h *Handlers) Reserve(w http.ResponseWriter, r *http.Request) {
	if r.URL.RawQuery != "" {
		h.bookingError(w, opReserve, http.StatusBadRequest, "query string: a booking takes no query parameters (the request is the JSON body)")
		return
	}
	key, err := idempotencyKey(r.Header, true)
	if err != nil {
		h.bookingError(w, opReserve, http.StatusBadRequest, err.Error())
		return
	}
	req, err := decodeBookingRequest(r.Body)
	if err != nil {
		status := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			status = http.StatusRequestEntityTooLarge
		}
		h.bookingError(w, opReserve, status, err.Error())
		return
	}
	reg, ok := h.registration(req.Alliance)
	if !ok {
		h.bookingError(w, opReserve, http.StatusNotFound, fmt.Sprintf("alliance: no alliance %q is registered with this search server", req.Alliance))
		return
	}
	wreq := soap.ReserveRequest{Alliance: req.Alliance, Seats: req.Seats, RequestID: key, Hold: req.Hold}
	for _, l := range req.Legs {
		wreq.Legs = append(wreq.Legs, soap.LegRef{Seller: l.Seller, Flight: l.Flight})
	}
	resp, fail := onAlliance(h, r.Context(), opReserve, reg, func(ctx context.Context, b Booker) (*soap.ReserveResponse, error) {
		return b.Reserve(ctx, wreq)
	})
	if fail != nil {
		h.bookingError(w, opReserve, fail.status, fail.msg)
		return
	}
	var wb *soap.Booking
	if resp != nil {
		wb = &resp.Booking
	}
	b, ok := h.checkedBooking(w, opReserve, reg.Name, wb)
	if !ok {
		return
	}
	status := http.StatusOK
	if resp.Created {
		status = http.StatusCreated
		w.Header().Set("Location", Path+"/"+url.PathEscape(b.ID))
	}
	h.bookingAnswer(w, opReserve, status, b)
}

// Get answers GET /Services/FlightsSearch/bookings/{id}.
func (h *Handlers) Get(w http.ResponseWriter, r *http.Request) {
	h.onBooking(w, r, opGet, func(ctx context.Context, b Booker, id, _ string) (*soap.Booking, error) {
		return b.GetBooking(ctx, id)
	})
}

// Cancel answers DELETE /Services/FlightsSearch/bookings/{id}: the booking, cancelled.
// Cancelling again answers the same.
func (h *Handlers) Cancel(w http.ResponseWriter, r *http.Request) {
	h.onBooking(w, r, opCancel, func(ctx context.Context, b Booker, id, key string) (*soap.Booking, error) {
		return b.Cancel(ctx, id, key)
	})
}

// Confirm answers POST /Services/FlightsSearch/bookings/{id}/confirm: a held booking,
// confirmed (409 once it expired or was cancelled). Confirming again answers the same.
func (h *Handlers) Confirm(w http.ResponseWriter, r *http.Request) {
	h.onBooking(w, r, opConfirm, func(ctx context.Context, b Booker, id, key string) (*soap.Booking, error) {
		return b.Confirm(ctx, id, key)
	})
}

// onBooking is the part the routes of one booking share: the booking ID names the alliance to
// ask; an ID that does not, or names an alliance this server does not know, is no booking (404).
// The optional Idempotency-Key is passed on as the request ID.
func (h *Handlers) onBooking(w http.ResponseWriter, r *http.Request, op bookingOp,
	call func(ctx context.Context, b Booker, id, key string) (*soap.Booking, error)) {
	id := chi.URLParam(r, "id")
	if r.URL.RawQuery != "" {
		h.bookingError(w, op, http.StatusBadRequest, "query string: a booking's routes take no query parameters")
		return
	}
	// These routes read no body; one past the limit is refused all the same (docs/api.md, "Bodies"),
	// before the alliance is asked.
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
			h.bookingError(w, op, http.StatusRequestEntityTooLarge, fmt.Sprintf("body: larger than %d bytes (this route takes none)", mbe.Limit))
			return
		}
	}
	var key string
	if op != opGet {
		var err error
		if key, err = idempotencyKey(r.Header, false); err != nil {
			h.bookingError(w, op, http.StatusBadRequest, err.Error())
			return
		}
	}
	alliance, ok := bookingAlliance(id)
	if !ok {
		h.bookingError(w, op, http.StatusNotFound, fmt.Sprintf("no booking %q: a booking ID is <alliance>.<26 characters>", rest.Clip(id)))
		return
	}
	reg, ok := h.registration(alliance)
	if !ok {
		h.bookingError(w, op, http.StatusNotFound, fmt.Sprintf("no booking %q: its alliance %q is not registered with this search server", rest.Clip(id), alliance))
		return
	}
	wb, fail := onAlliance(h, r.Context(), op, reg, func(ctx context.Context, b Booker) (*soap.Booking, error) {
		return call(ctx, b, id, key)
	})
	if fail != nil {
		h.bookingError(w, op, fail.status, fail.msg)
		return
	}
	if b, ok := h.checkedBooking(w, op, reg.Name, wb); ok {
		h.bookingAnswer(w, op, http.StatusOK, b)
	}
}

// Seats answers GET /Services/FlightsSearch/seats?alliance=&seller=&flight=: one flight's
// seats as the alliance's system of record has them (a linearizable read, not a machine's copy).
func (h *Handlers) Seats(w http.ResponseWriter, r *http.Request) {
	alliance, seller, flight, err := seatsQuery(r.URL.RawQuery)
	if err != nil {
		h.bookingError(w, opSeats, http.StatusBadRequest, err.Error())
		return
	}
	reg, ok := h.registration(alliance)
	if !ok {
		h.bookingError(w, opSeats, http.StatusNotFound, fmt.Sprintf("alliance: no alliance %q is registered with this search server", alliance))
		return
	}
	ws, fail := onAlliance(h, r.Context(), opSeats, reg, func(ctx context.Context, b Booker) (*soap.GetSeatsResponse, error) {
		return b.GetSeats(ctx, reg.Name, seller, flight)
	})
	if fail != nil {
		h.bookingError(w, opSeats, fail.status, fail.msg)
		return
	}
	seats, err := convertSeats(reg.Name, seller, flight, ws)
	if err != nil {
		h.cfg.CallFailed(reg.Name, reg.URI, delegatecall.Malformed, err)
		h.bookingError(w, opSeats, http.StatusBadGateway, fmt.Sprintf("alliance %s answered malformed seats: %v", reg.Name, err))
		return
	}
	h.bookingAnswer(w, opSeats, http.StatusOK, seats)
}

// checkedBooking converts a delegate's booking, answering 502 when it is malformed: the request
// may have taken effect, so the client is told to retry (with the same key, for a reserve).
func (h *Handlers) checkedBooking(w http.ResponseWriter, op bookingOp, alliance string, wb *soap.Booking) (Booking, bool) {
	b, err := convertBooking(alliance, wb)
	if err != nil {
		h.cfg.CallFailed(alliance, "", delegatecall.Malformed, err)
		h.bookingError(w, op, http.StatusBadGateway, fmt.Sprintf("alliance %s answered a malformed booking: %v; %s", alliance, err, op.advice))
		return Booking{}, false
	}
	return b, true
}

func (h *Handlers) bookingAnswer(w http.ResponseWriter, op bookingOp, status int, v any) {
	h.cfg.Answered(op.name, status)
	rest.JSON(w, status, v)
}

func (h *Handlers) bookingError(w http.ResponseWriter, op bookingOp, status int, msg string) {
	h.cfg.Answered(op.name, status)
	rest.Error(w, status, msg)
}
