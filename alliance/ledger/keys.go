package ledger

import "path"

// keys names the ledger's paths in one alliance's part of the coordination tree (docs/api.md, "The
// coordination tree").
type keys struct{ root string }

func newKeys(alliance string) keys { return keys{root: "/alliances/" + alliance} }

// booking is a booking's record (JSON, booking.Record).
func (k keys) booking(id string) string { return path.Join(k.root, "bookings", id) }

// seats is the folder of the booked-seat counters, one per booked flight: seats/<seller>/<flight>.
func (k keys) seats() string { return k.root + "/seats" }

// seat is the counter of the seats booked (held or confirmed) on one flight, a decimal number.
func (k keys) seat(seller, number string) string { return path.Join(k.root, "seats", seller, number) }

// idempotency is the record of an idempotency key (booking.Idempotency), named by its hash.
func (k keys) idempotency(keyHash string) string { return path.Join(k.root, "idempotency", keyHash) }

// holds is the folder of the open holds: holds/<booking id> = its expiry (RFC 3339).
func (k keys) holds() string { return k.root + "/holds" }

// hold is one open hold's entry.
func (k keys) hold(id string) string { return path.Join(k.root, "holds", id) }
