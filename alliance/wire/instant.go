package wire

import (
	"sync/atomic"
	"time"
)

// instantText is t.UTC().Format(time.RFC3339), remembered: a search's answer writes two instants
// per leg, thousands of legs, and a day's flights share a few thousand instants (departures and
// arrivals fall on whole minutes), so most are written before. The memory is a fixed table
// indexed by the instant's minute, each slot holding the last instant written there (checked to
// the second); a slot is replaced whole (an atomic pointer), so concurrent readers see an
// instant and its own text.
func instantText(t time.Time) string {
	sec := t.Unix()
	slot := &instants[uint64(sec/60)%uint64(len(instants))]
	if e := slot.Load(); e != nil && e.sec == sec {
		return e.text
	}
	text := t.UTC().Format(time.RFC3339)
	slot.Store(&instantEntry{sec: sec, text: text})
	return text
}

// instantEntry is an instant, to the second (all RFC 3339 without fractions shows), and its text.
type instantEntry struct {
	sec  int64
	text string
}

// instants holds a week of whole minutes without two sharing a slot.
var instants [7 * 24 * 60]atomic.Pointer[instantEntry]
