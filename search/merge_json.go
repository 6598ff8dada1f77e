package search

import "strconv"

// appendJSON appends the answer's JSON: Merge's answer's AppendJSON, without making its trips.
func (m *merged) appendJSON(dst []byte) []byte {
	return m.ans.appendJSON(dst, func(dst []byte) []byte {
		dst = append(dst, '[')
		for i := range m.window {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = m.window[i].appendJSON(dst)
		}
		return append(dst, ']')
	})
}

// materialize is the trip as the answer shows it; its legs are appended to legs.
func (t *trip) materialize(legs []Leg) (Trip, []Leg) {
	first := len(legs)
	for i := range t.w.Legs {
		wl := &t.w.Legs[i]
		legs = append(legs, Leg{
			Flight: wl.Flight, Seller: wl.Seller, Alliance: t.alliance,
			Src: wl.Src, Dst: wl.Dst, Departure: wl.Departure, Arrival: wl.Arrival,
			Price: legPrice(wl.Price), Seats: wl.Seats,
		})
	}
	return Trip{Price: priceString(t.w.Price, t.cents), Legs: legs[first:len(legs):len(legs)]}, legs
}

// appendJSON appends the trip's JSON, as (*Trip).appendJSON does for materialize's trip. Its
// prices and instants passed convertTrip, so they hold nothing to escape (digits, '.', and what
// time.Parse takes in an RFC 3339 instant) and are copied as they are.
func (t *trip) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"price":`...)
	dst = appendPlain(dst, priceString(t.w.Price, t.cents))
	dst = append(dst, `,"legs":[`...)
	for i := range t.w.Legs {
		if i > 0 {
			dst = append(dst, ',')
		}
		wl := &t.w.Legs[i]
		dst = append(dst, `{"flight":`...)
		dst = appendString(dst, wl.Flight)
		dst = append(dst, `,"seller":`...)
		dst = appendString(dst, wl.Seller)
		dst = append(dst, `,"alliance":`...)
		dst = appendString(dst, t.alliance)
		dst = append(dst, `,"src":`...)
		dst = appendString(dst, wl.Src)
		dst = append(dst, `,"dst":`...)
		dst = appendString(dst, wl.Dst)
		dst = append(dst, `,"departure":`...)
		dst = appendPlain(dst, wl.Departure)
		dst = append(dst, `,"arrival":`...)
		dst = appendPlain(dst, wl.Arrival)
		dst = append(dst, `,"price":`...)
		dst = appendPlain(dst, legPrice(wl.Price))
		dst = append(dst, `,"seats":`...)
		dst = strconv.AppendInt(dst, int64(wl.Seats), 10)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// appendPlain appends s, which holds nothing JSON escapes, as a JSON string.
func appendPlain(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// legPrice is a validated leg price written as API.md writes prices.
func legPrice(s string) string {
	c, _ := centsOf(s) // validated by convertTrip
	return priceString(s, c)
}

// sizeHint is about the bytes appendJSON takes (at or above, for answers with nothing to escape
// beyond the names of alliances), so that the answer's buffer is allocated once.
func (m *merged) sizeHint() int {
	n := 512 + len(m.ans.Query.Src) + len(m.ans.Query.Dst) + len(m.ans.Query.MaxPrice) + len(m.ans.Query.Sort)
	for _, s := range m.ans.Query.Servers {
		n += len(s) + 3
	}
	for i := range m.ans.Alliances {
		a := &m.ans.Alliances[i]
		n += 64 + 2*len(a.Name) + 2*len(a.Error)
		for _, s := range a.MissingSellers {
			n += len(s) + 3
		}
	}
	for i := range m.window {
		t := &m.window[i]
		n += len(`{"price":"",,"legs":[]},`) + len(t.w.Price) + 4
		for j := range t.w.Legs {
			l := &t.w.Legs[j]
			n += len(`{"flight":"","seller":"","alliance":"","src":"","dst":"","departure":"","arrival":"","price":"","seats":},`) +
				len(l.Flight) + len(l.Seller) + 2*len(t.alliance) + len(l.Src) + len(l.Dst) + len(l.Departure) +
				len(l.Arrival) + len(l.Price) + 4 + intLen(l.Seats)
		}
	}
	return n
}

// intLen is the length of v in decimal.
func intLen(v int) int {
	n := 1
	if v < 0 {
		n++
	}
	for v >= 10 || v <= -10 {
		v /= 10
		n++
	}
	return n
}
