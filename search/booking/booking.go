package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"flightalliance/contract"
	"flightalliance/search/internal/rest"
	"flightalliance/search/merge"
	"flightalliance/soap"
)

// Booker is a delegate that takes bookings: the booking half of SellerService. The routes
// type-assert the client of a machine (Config.Machine) to it; soap.SellerClient is one. A client
// that is not a Booker makes the alliance answer 503 to every booking request.
type Booker interface {
	Reserve(ctx context.Context, req soap.ReserveRequest) (*soap.ReserveResponse, error)
	Cancel(ctx context.Context, bookingID, requestID string) (*soap.Booking, error)
	Confirm(ctx context.Context, bookingID, requestID string) (*soap.Booking, error)
	GetBooking(ctx context.Context, bookingID string) (*soap.Booking, error)
	GetSeats(ctx context.Context, alliance, seller, flight string) (*soap.GetSeatsResponse, error)
}

// Booking is the JSON form of a booking (docs/api.md, "Bookings"): every REST booking answer. Legs
// are rendered as a search renders them; Price is what the whole booking costs; ExpiresAt is set
// only on a hold.
type Booking struct {
	ID        string      `json:"id"`
	Alliance  string      `json:"alliance"`
	Legs      []merge.Leg `json:"legs"`
	Seats     int         `json:"seats"`
	Price     string      `json:"price"`
	Status    string      `json:"status"`
	CreatedAt string      `json:"created_at"`
	ExpiresAt string      `json:"expires_at,omitempty"`
}

// BookingRequest is the JSON body of POST /Services/FlightsSearch/bookings. Hold, a Go duration
// (1s–24h), books a hold that must be confirmed before it expires.
type BookingRequest struct {
	Alliance string   `json:"alliance"`
	Legs     []LegRef `json:"legs"`
	Seats    int      `json:"seats"`
	Hold     string   `json:"hold,omitempty"`
}

// LegRef names one flight to book.
type LegRef struct {
	Seller string `json:"seller"`
	Flight string `json:"flight"`
}

// Seats is the JSON body answering GET /Services/FlightsSearch/seats: one flight's seats for
// sale (Capacity), booked (held or confirmed) and left, as the alliance's system of record says.
type Seats struct {
	Alliance string `json:"alliance"`
	Seller   string `json:"seller"`
	Flight   string `json:"flight"`
	Capacity int    `json:"capacity"`
	Booked   int    `json:"booked"`
	Left     int    `json:"left"`
}

// The production client takes bookings.
var _ Booker = (*soap.SellerClient)(nil)

var bookingStatuses = []string{soap.StatusConfirmed, soap.StatusHeld, soap.StatusCancelled, soap.StatusExpired}

// convertBooking checks a delegate's booking and renders it as JSON. Legs are stamped with the
// alliance's registration name, as in a search. An error means the delegate answered something
// that is not a booking of docs/api.md.
func convertBooking(alliance string, wb *soap.Booking) (Booking, error) {
	if wb == nil {
		return Booking{}, errors.New("no booking in the answer")
	}
	if wb.ID == "" {
		return Booking{}, errors.New("booking without an ID")
	}
	if wb.Alliance != "" && wb.Alliance != alliance { // another alliance's machine at a registered address
		return Booking{}, fmt.Errorf("booking %s is of alliance %q, not %q", rest.Clip(wb.ID), rest.Clip(wb.Alliance), alliance)
	}
	if n := len(wb.Legs); n < 1 || n > 2 {
		return Booking{}, fmt.Errorf("booking %s has %d legs, expected 1 or 2", rest.Clip(wb.ID), n)
	}
	if wb.Seats < 1 {
		return Booking{}, fmt.Errorf("booking %s has %d seats", rest.Clip(wb.ID), wb.Seats)
	}
	if !slices.Contains(bookingStatuses, wb.Status) {
		return Booking{}, fmt.Errorf("booking %s has status %q", rest.Clip(wb.ID), rest.Clip(wb.Status))
	}
	cents, err := contract.ParseCents(wb.Price)
	if err != nil {
		return Booking{}, fmt.Errorf("booking %s: %w", rest.Clip(wb.ID), err)
	}
	if _, err := time.Parse(time.RFC3339, wb.CreatedAt); err != nil {
		return Booking{}, fmt.Errorf("booking %s: created_at %q is not an RFC 3339 instant", rest.Clip(wb.ID), rest.Clip(wb.CreatedAt))
	}
	if wb.ExpiresAt != "" {
		if _, err := time.Parse(time.RFC3339, wb.ExpiresAt); err != nil {
			return Booking{}, fmt.Errorf("booking %s: expires_at %q is not an RFC 3339 instant", rest.Clip(wb.ID), rest.Clip(wb.ExpiresAt))
		}
	}
	b := Booking{ID: wb.ID, Alliance: alliance, Legs: make([]merge.Leg, 0, len(wb.Legs)), Seats: wb.Seats,
		Price: cents.String(), Status: wb.Status, CreatedAt: wb.CreatedAt, ExpiresAt: wb.ExpiresAt}
	for i, wl := range wb.Legs {
		l, _, _, err := merge.ConvertLeg(alliance, wl)
		if err != nil {
			return Booking{}, fmt.Errorf("booking %s: leg %d: %w", rest.Clip(wb.ID), i+1, err)
		}
		b.Legs = append(b.Legs, l)
	}
	return b, nil
}

// convertSeats checks a delegate's getSeats answer and renders it as JSON for the flight asked.
func convertSeats(alliance, seller, flight string, ws *soap.GetSeatsResponse) (Seats, error) {
	switch {
	case ws == nil:
		return Seats{}, errors.New("no seats in the answer")
	case ws.Capacity < 0 || ws.Booked < 0 || ws.Left < 0:
		return Seats{}, fmt.Errorf("flight %s: capacity %d, booked %d, left %d", flight, ws.Capacity, ws.Booked, ws.Left)
	case ws.Seller != "" && ws.Seller != seller, ws.Flight != "" && ws.Flight != flight:
		return Seats{}, fmt.Errorf("asked for %s %s, answered %s %s", seller, flight, rest.Clip(ws.Seller), rest.Clip(ws.Flight))
	}
	return Seats{Alliance: alliance, Seller: seller, Flight: flight, Capacity: ws.Capacity, Booked: ws.Booked, Left: ws.Left}, nil
}
