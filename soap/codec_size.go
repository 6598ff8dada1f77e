package soap

// Size hints for the fast encoder: the bytes a hot response takes, counted from the lengths of
// its strings, so that its buffer is allocated once at about the right size rather than grown by
// doubling (a 2,700-trip getTripsResponse is 2 MB: growing to it copies about twice that).
// A hint is close, not exact — text that needs escaping takes more, and the buffer then grows.

// Per element: "<Name>" + "</Name>", 2·len(name)+5 bytes.
func elementSize(name, text string) int { return 2*len(name) + 5 + len(text) }

// maxIntText is the longest decimal int.
const maxIntText = 20

// indexText is the most digits of a position in a list of n.
func indexText(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// sizeHint is the bytes resp is expected to take inside the envelope; 0 for a type without a
// hint.
func sizeHint(resp any) int {
	switch r := resp.(type) {
	case *GetTripsResponse:
		if r == nil {
			return 0
		}
		n := 256 + len(r.ETag)
		for _, s := range r.MissingSellers {
			n += elementSize("MissingSellers", s)
		}
		for i := range r.SharedLegs {
			n += legSize(&r.SharedLegs[i]) + 2*len("Shared")
		}
		for i := range r.Trips {
			t := &r.Trips[i]
			n += len("<Trips></Trips>") + elementSize("Price", t.Price)
			for j := range t.Legs {
				n += legSize(&t.Legs[j])
			}
			n += len(t.LegIndexes) * (elementSize("LegIndexes", "") + indexText(len(r.SharedLegs)))
		}
		return n
	case *RelevantFlightsResponse:
		if r == nil {
			return 0
		}
		return 256 + flightsSize(r.Flights)
	case *RelevantBothResponse:
		if r == nil {
			return 0
		}
		// "FromSrc" and "ToDst" are no longer than "Flights".
		return 256 + flightsSize(r.FromSrc) + flightsSize(r.ToDst)
	case *SellerPage:
		if r == nil {
			return 0
		}
		return 256 + len(r.Seller) + len(r.Version) + len(r.NextCursor) + flightsSize(r.Flights)
	}
	return 0
}

func legSize(l *Leg) int {
	return len("<Legs></Legs>") + elementSize("Flight", l.Flight) + elementSize("Seller", l.Seller) +
		elementSize("Alliance", l.Alliance) + elementSize("Src", l.Src) + elementSize("Dst", l.Dst) +
		elementSize("Departure", l.Departure) + elementSize("Arrival", l.Arrival) +
		elementSize("Price", l.Price) + elementSize("Seats", "") + maxIntText
}

func flightsSize(flights []Flight) int {
	n := 0
	for i := range flights {
		f := &flights[i]
		n += len("<Flights></Flights>") + elementSize("Flight", f.Flight) + elementSize("Seller", f.Seller) +
			elementSize("Src", f.Src) + elementSize("Dst", f.Dst) + elementSize("Departure", f.Departure) +
			elementSize("Arrival", f.Arrival) + elementSize("Price", f.Price) + elementSize("Seats", "") + maxIntText
	}
	return n
}
