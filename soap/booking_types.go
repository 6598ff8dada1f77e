package soap

import "encoding/xml"

// Booking statuses, as Booking.Status carries them (docs/api.md, "Bookings").
const (
	StatusConfirmed = "confirmed"
	StatusHeld      = "held"
	StatusCancelled = "cancelled"
	StatusExpired   = "expired"
)

// LegRef names one flight to book: its seller and its flight number (unique within the seller).
type LegRef struct {
	Seller string `xml:"Seller"`
	Flight string `xml:"Flight"`
}

// Booking is a booking on the wire. Legs are the booked flights as a search shows them (Seats is
// the seats left on the flight as of the answer); Price is what the booking costs: the sum of the
// legs' prices times Seats. CreatedAt and ExpiresAt are RFC 3339 UTC instants; ExpiresAt is set
// only on a hold.
type Booking struct {
	ID        string `xml:"ID"`
	Alliance  string `xml:"Alliance"`
	Legs      []Leg  `xml:"Legs"`
	Seats     int    `xml:"Seats"`
	Price     string `xml:"Price"`
	Status    string `xml:"Status"`
	CreatedAt string `xml:"CreatedAt"`
	ExpiresAt string `xml:"ExpiresAt,omitempty"`
}

// ReserveRequest is SellerService.reserve: Seats seats on every leg, or none. RequestID is the
// client's idempotency key: the same RequestID with the same request answers the same booking.
// Hold, a Go duration (1s–24h), makes the booking a hold that must be confirmed before it expires.
type ReserveRequest struct {
	XMLName   xml.Name `xml:"reserve"`
	Alliance  string   `xml:"Alliance"`
	Legs      []LegRef `xml:"Legs"`
	Seats     int      `xml:"Seats"`
	RequestID string   `xml:"RequestID"`
	Hold      string   `xml:"Hold,omitempty"`
}

// ReserveResponse answers reserve. Created is false when RequestID had made this booking before
// (the call was a retry).
type ReserveResponse struct {
	XMLName xml.Name `xml:"reserveResponse"`
	Booking Booking  `xml:"Booking"`
	Created bool     `xml:"Created"`
}

// BookingRequest is cancel, confirm and getBooking: the booking's ID, and optionally the
// client's request ID (kept in the logs).
type BookingRequest struct {
	XMLName   xml.Name
	BookingID string `xml:"BookingID"`
	RequestID string `xml:"RequestID,omitempty"`
}

// BookingResponse answers cancel, confirm and getBooking (as cancelResponse, confirmResponse and
// getBookingResponse).
type BookingResponse struct {
	XMLName xml.Name
	Booking Booking `xml:"Booking"`
}

// GetSeatsRequest is SellerService.getSeats: the seats of one flight, read from the alliance's
// system of record (a linearizable read), not from a machine's copy. Alliance, optional, is the
// alliance the caller means: a machine of another alliance refuses it (other-alliance) rather than
// answer with its own count; a caller that leaves it out gets the machine's alliance's count.
type GetSeatsRequest struct {
	XMLName  xml.Name `xml:"getSeats"`
	Alliance string   `xml:"Alliance,omitempty"`
	Seller   string   `xml:"Seller"`
	Flight   string   `xml:"Flight"`
}

// GetSeatsResponse answers getSeats: the flight's seats for sale (its file's seats), the seats
// booked (held or confirmed) and the seats left.
type GetSeatsResponse struct {
	XMLName  xml.Name `xml:"getSeatsResponse"`
	Seller   string   `xml:"Seller"`
	Flight   string   `xml:"Flight"`
	Capacity int      `xml:"Capacity"`
	Booked   int      `xml:"Booked"`
	Left     int      `xml:"Left"`
}
