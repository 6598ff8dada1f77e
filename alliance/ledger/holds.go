package ledger

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/coord"
)

// When a hold falls due is decided on each machine's own clock, and never by comparing the
// clocks of two machines: a machine whose wall clock runs ahead of the one that made a hold (or
// is stepped forward by NTP) must not release it, or refuse its confirmation, early. A machine
// that sees a hold made (its watch reports the entry created) counts the hold's length from that
// moment on its monotonic clock; only a hold it found already open (at start, or after its watch
// had to read the folder again) is compared with expires_at on its wall clock. Seeing an entry
// late only makes that machine later; the delegate, first in the sweep's line, is usually the
// machine that has watched longest.

// holdEntry is the value of an open hold's entry (holds/<id>): its expiry on the clock of the
// machine that made it, and its length. Entries written before the length was kept are their
// expiry alone (RFC 3339).
type holdEntry struct {
	ExpiresAt time.Time `json:"expires_at"`
	Hold      string    `json:"hold"`
}

// openHold is one open hold as this machine knows it.
type openHold struct {
	expires time.Time     // expires_at, read from the entry
	length  time.Duration // the hold's length; 0 when the entry does not say
	seen    time.Time     // when this machine saw the entry made, on its clock; zero when it found it open
}

// due is when the hold falls due on this machine's clock: its length after the machine saw it
// made, else expires_at.
func (o openHold) due() time.Time {
	if !o.seen.IsZero() && o.length > 0 {
		return o.seen.Add(o.length)
	}
	return o.expires
}

// parseHold reads an entry's value; an unreadable one is due at once (the ledger decides from
// the booking's record).
func parseHold(v []byte) openHold {
	var e holdEntry
	if err := json.Unmarshal(v, &e); err == nil {
		length, err := time.ParseDuration(e.Hold)
		if err != nil || length < 0 {
			length = 0
		}
		return openHold{expires: e.ExpiresAt, length: length}
	}
	t, err := time.Parse(time.RFC3339Nano, string(v))
	if err != nil {
		return openHold{}
	}
	return openHold{expires: t}
}

// holdValue is the entry of a hold made by r.
func holdValue(r booking.Record, length time.Duration) string {
	return mustJSON(holdEntry{ExpiresAt: r.ExpiresAt, Hold: length.String()})
}

// Holds is this machine's copy of the alliance's open holds, followed from etcd, so that the
// machine knows when the next one falls due without polling.
type Holds struct {
	dir    string
	mirror *coord.Mirror[map[string]openHold]
}

// NewHolds returns an empty copy of alliance's open holds, timed by now (the machine's clock);
// Follow fills it.
func NewHolds(alliance string, now func() time.Time) *Holds {
	fold := func(open *map[string]openHold, ev coord.Event) func() {
		foldHold(open, ev, now)
		return nil
	}
	return &Holds{dir: newKeys(alliance).holds(), mirror: coord.NewMirror(map[string]openHold{}, fold)}
}

// Follow keeps the copy until ctx ends.
func (h *Holds) Follow(ctx context.Context, t *coord.Tree, log *slog.Logger) {
	h.mirror.Follow(ctx, t, h.dir, coord.WatchOptions{Children: true}, log)
}

// foldHold folds one event of the holds folder into the open holds: an entry created is seen
// made now; one found by a resync keeps when it was seen if it was already known.
func foldHold(open *map[string]openHold, ev coord.Event, now func() time.Time) {
	switch ev.Type {
	case coord.EventCreated, coord.EventChanged:
		o := parseHold(ev.Value)
		o.seen = now()
		if old, ok := (*open)[ev.Name]; ok && ev.Type == coord.EventChanged {
			o.seen = old.seen
		}
		(*open)[ev.Name] = o
	case coord.EventDeleted:
		delete(*open, ev.Name)
	case coord.EventResync:
		next := make(map[string]openHold, len(ev.Children))
		for _, ch := range ev.Children {
			o := parseHold(ch.Value)
			if old, ok := (*open)[ch.Name]; ok {
				o.seen = old.seen
			}
			next[ch.Name] = o
		}
		*open = next
	}
}

// snapshot returns when each open hold falls due on this machine's clock, and a channel closed
// at their next change (taken first, so that a change made while the copy is read closes it).
func (h *Holds) snapshot() (due map[string]time.Time, changed <-chan struct{}) {
	changed = h.mirror.Changed()
	h.mirror.Read(func(open *map[string]openHold) {
		due = make(map[string]time.Time, len(*open))
		for id, o := range *open {
			due[id] = o.due()
		}
	})
	return due, changed
}

// Expired reports whether the hold r has fallen due at now on this machine's clock: by the copy
// of the open holds when it has r's entry, else by r's expires_at. A booking that is not a hold
// never has.
func (h *Holds) Expired(r booking.Record, now time.Time) bool {
	if r.Status != booking.Held {
		return false
	}
	var o openHold
	var known bool
	h.mirror.Read(func(open *map[string]openHold) { o, known = (*open)[r.ID] })
	if !known {
		return booking.Due(r, now)
	}
	return !now.Before(o.due())
}
