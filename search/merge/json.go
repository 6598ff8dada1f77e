package merge

// AppendJSON appends the answer's JSON: Merge's answer's AppendJSON, without making its trips.
func (m *Merged) AppendJSON(dst []byte) []byte {
	return m.Answer.appendJSON(dst, func(dst []byte) []byte {
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
	for _, l := range t.legs {
		wl := l.w
		legs = append(legs, Leg{
			Flight: wl.Flight, Seller: wl.Seller, Alliance: t.alliance,
			Src: wl.Src, Dst: wl.Dst, Departure: wl.Departure, Arrival: wl.Arrival,
			Price: priceString(wl.Price, l.cents), Seats: wl.Seats,
		})
	}
	return Trip{Price: priceString(t.price, t.cents), Legs: legs[first:len(legs):len(legs)]}, legs
}

// appendJSON appends the trip's JSON, as (*Trip).appendJSON does for materialize's trip (see
// validLeg.appendJSON).
func (t *trip) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"price":`...)
	dst = appendPlain(dst, priceString(t.price, t.cents))
	dst = append(dst, `,"legs":[`...)
	for i, l := range t.legs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = l.appendJSON(dst, t.alliance)
	}
	return append(dst, "]}"...)
}

// appendPlain appends s, which holds nothing JSON escapes, as a JSON string.
func appendPlain(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// SizeHint is about the bytes AppendJSON takes (at or above, for answers with nothing to escape
// beyond the names of alliances), so that the answer's buffer is allocated once.
func (m *Merged) SizeHint() int {
	n := 512 + len(m.Answer.Query.Src) + len(m.Answer.Query.Dst) + len(m.Answer.Query.MaxPrice) + len(m.Answer.Query.Sort)
	for _, s := range m.Answer.Query.Servers {
		n += len(s) + 3
	}
	for i := range m.Answer.Alliances {
		a := &m.Answer.Alliances[i]
		n += 64 + 2*len(a.Name) + 2*len(a.Error)
		for _, s := range a.MissingSellers {
			n += len(s) + 3
		}
	}
	for i := range m.window {
		t := &m.window[i]
		n += len(`{"price":"",,"legs":[]},`) + len(t.price) + 4
		for _, tl := range t.legs {
			l := tl.w
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
