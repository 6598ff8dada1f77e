package booking

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
	"time"

	"flightalliance/alliance/flight"
)

// Statuses of a booking. Held and Confirmed take seats; Cancelled and Expired have given them back.
const (
	Confirmed = "confirmed"
	Held      = "held"
	Cancelled = "cancelled"
	Expired   = "expired"
)

// Record is a booking as the alliance keeps it (JSON, at /alliances/<alliance>/bookings/<id>).
// Legs are the flights as they were when booked: a booking reads the same whatever happens to
// the machines that hold its sellers.
type Record struct {
	ID          string       `json:"id"`
	Alliance    string       `json:"alliance"`
	Legs        []Leg        `json:"legs"`
	Seats       int          `json:"seats"`
	Price       flight.Cents `json:"price"` // seats × the sum of the legs' prices
	Status      string       `json:"status"`
	CreatedAt   time.Time    `json:"created_at"`
	ExpiresAt   time.Time    `json:"expires_at,omitzero"` // holds only
	Fingerprint string       `json:"fingerprint"`         // of the request that made it
	KeyHash     string       `json:"key_sha256"`          // of its idempotency key
	ChangedAt   time.Time    `json:"changed_at,omitzero"` // when it was confirmed, cancelled or expired
}

// Leg is a booked flight as the record keeps it; Capacity is the flight's seats for sale when
// it was booked.
type Leg struct {
	Flight    string       `json:"flight"`
	Seller    string       `json:"seller"`
	Src       string       `json:"src"`
	Dst       string       `json:"dst"`
	Departure time.Time    `json:"departure"`
	Arrival   time.Time    `json:"arrival"`
	Price     flight.Cents `json:"price"`
	Capacity  int          `json:"capacity"`
}

// LegOf is the record of a booked flight.
func LegOf(f flight.Flight) Leg {
	return Leg{Flight: f.Number, Seller: f.Seller, Src: f.Src, Dst: f.Dst, Departure: f.Departure,
		Arrival: f.Arrival, Price: f.Price, Capacity: f.Seats}
}

// Key is the leg's flight's alliance-wide identity.
func (l Leg) Key() flight.Key { return flight.Key{Seller: l.Seller, Number: l.Flight} }

// Takes reports whether the booking holds seats.
func (r Record) Takes() bool { return r.Status == Held || r.Status == Confirmed }

// Idempotency is the record of a key (at /alliances/<alliance>/idempotency/<KeyHash>): the
// booking it made and what was asked.
type Idempotency struct {
	BookingID   string `json:"booking_id"`
	Fingerprint string `json:"fingerprint"`
}

// idEncoding writes IDs in lower-case base32 without padding: 16 random bytes are 26 characters.
var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewID returns a fresh booking ID, "<alliance>.<128 random bits>": unguessable, and the search
// server finds the alliance from it.
func NewID(alliance string) string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return alliance + "." + strings.ToLower(idEncoding.EncodeToString(b[:]))
}

// AllianceOf returns the alliance an ID names, and false for a string that is not a booking ID.
func AllianceOf(id string) (string, bool) {
	i := strings.LastIndexByte(id, '.')
	if i <= 0 || len(id)-i-1 != 26 {
		return "", false
	}
	for _, c := range id[i+1:] {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return "", false
		}
	}
	return id[:i], true
}

// New builds the record of a reservation made at now.
func New(id string, req Request, legs []flight.Flight, now time.Time) Record {
	var price flight.Cents
	kept := make([]Leg, len(legs))
	for i, f := range legs {
		price += f.Price
		kept[i] = LegOf(f)
	}
	r := Record{
		ID: id, Alliance: req.Alliance, Legs: kept, Seats: req.Seats,
		Price: price * flight.Cents(req.Seats), Status: Confirmed, CreatedAt: now.UTC(),
		Fingerprint: req.Fingerprint(), KeyHash: KeyHash(req.Key),
	}
	if req.Hold > 0 {
		r.Status, r.ExpiresAt = Held, now.Add(req.Hold).UTC()
	}
	return r
}
