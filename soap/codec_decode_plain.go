package soap

// The fast decoder's first try at the elements a large answer holds thousands of: their fields
// in the order the encoder writes them (codec_encode.go), each written plainly (see xmlcodec's
// PlainText), read by name without tokenizing. Each stops at the first field that is not there
// so, and the element's general loop (codec_decode_types.go) reads the rest, through the end:
// another stack's order, spacing or escapes decode as before, only slower. Each is given a
// zero value to fill.

// plainTrip reads a trip's price and leg indexes as appendGetTrips writes them for an answer whose
// legs are shared, as far as they go, the indexes onto d.indexes as trip does; it returns where
// the trip's indexes start there.
func (d *decoder) plainTrip(r *Trip, firstIndex int) int {
	price, ok := d.PlainText("Price")
	if !ok {
		return firstIndex
	}
	r.Price = price
	for {
		k, ok := d.PlainInt("LegIndexes")
		if !ok {
			return firstIndex
		}
		d.indexes, firstIndex = roomFor(d.indexes, firstIndex, 256, 16384)
		d.indexes = append(d.indexes, k)
	}
}

// plainFlight reads a flight's fields as appendFlightsAs writes them, as far as they go.
func (d *decoder) plainFlight(r *Flight) {
	number, ok := d.PlainUniqueText("Flight")
	if !ok {
		return
	}
	r.Flight = number
	if d.plainTexts([]textField{{"Seller", &r.Seller}, {"Src", &r.Src}, {"Dst", &r.Dst},
		{"Departure", &r.Departure}, {"Arrival", &r.Arrival}, {"Price", &r.Price}}) {
		r.Seats, _ = d.PlainInt("Seats")
	}
}

// plainLeg reads a leg's fields as appendLeg writes them, as far as they go.
func (d *decoder) plainLeg(r *Leg) {
	if d.plainTexts([]textField{{"Flight", &r.Flight}, {"Seller", &r.Seller}, {"Alliance", &r.Alliance},
		{"Src", &r.Src}, {"Dst", &r.Dst}, {"Departure", &r.Departure}, {"Arrival", &r.Arrival}, {"Price", &r.Price}}) {
		r.Seats, _ = d.PlainInt("Seats")
	}
}

// textField is a string field to read plainly, and where it goes.
type textField struct {
	name string
	to   *string
}

// plainTexts reads the fields in order with PlainText, as far as they go, and reports whether
// it read them all.
func (d *decoder) plainTexts(fields []textField) bool {
	for _, f := range fields {
		v, ok := d.PlainText(f.name)
		if !ok {
			return false
		}
		*f.to = v
	}
	return true
}
