package soap

import "flightalliance/soap/xmlcodec"

// The fast decoder's view of the hot response types: each function reads the content of an
// element just started, through its end, as encoding/xml's Unmarshal fills the type — children
// matched by local name in any namespace, a repeated scalar keeps its last value, a slice gets
// an item per occurrence and stays nil without any, unknown children and the element's own
// text are skipped (xmlcodec's NextChild, Skip, Text, Int and Bool read as Unmarshal reads).
// flight, leg and trip first read the fields the encoder writes, in its order, by name
// (codec_decode_plain.go). Keep them in step with types.go, as the encoder (codec_encode.go):
// TestCodecKnowsEveryField fails for a field either of them lacks.

func (d *decoder) getTrips(r *GetTripsResponse) {
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Alliance":
			r.Alliance = d.Text()
		case "SharedLegs":
			r.SharedLegs = append(r.SharedLegs, Leg{})
			d.leg(&r.SharedLegs[len(r.SharedLegs)-1])
		case "Trips":
			if r.Trips != nil {
				r.Trips = append(r.Trips, Trip{})
				d.trip(&r.Trips[len(r.Trips)-1])
				break
			}
			// The first trip tells about how many follow: the list is allocated once, not grown
			// by doubling (a whole answer has thousands; at most maxTripsGuess on a guess).
			before := d.Remaining()
			var first Trip
			d.trip(&first)
			r.Trips = make([]Trip, 1, min(before/max(before-d.Remaining(), 1)+1, maxTripsGuess))
			r.Trips[0] = first
		case "Complete":
			r.Complete = d.Bool()
		case "MissingSellers":
			r.MissingSellers = append(r.MissingSellers, d.Text())
		case "Total":
			r.Total = d.Int()
		case "ETag":
			r.ETag = d.Text()
		case "NotModified":
			r.NotModified = d.Bool()
		default:
			d.Skip()
		}
	}
}

// maxTripsGuess bounds the trips getTrips allocates room for from the size of the first.
const maxTripsGuess = 1 << 16

// trip cuts the trip's legs and leg indexes from chunks shared by the answer's trips (d.legs,
// d.indexes), capacity capped, rather than allocating slices per trip.
func (d *decoder) trip(r *Trip) {
	first, firstIndex := len(d.legs), len(d.indexes)
	firstIndex = d.plainTrip(r, firstIndex)
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Price":
			r.Price = d.Text()
		case "Legs":
			d.legs, first = roomFor(d.legs, first, 64, 1024)
			d.legs = append(d.legs, Leg{})
			d.leg(&d.legs[len(d.legs)-1])
		case "LegIndexes":
			d.indexes, firstIndex = roomFor(d.indexes, firstIndex, 256, 16384)
			d.indexes = append(d.indexes, d.Int())
		default:
			d.Skip()
		}
	}
	if end := len(d.legs); end > first {
		r.Legs = d.legs[first:end:end]
	}
	if end := len(d.indexes); end > firstIndex {
		r.LegIndexes = d.indexes[firstIndex:end:end]
	}
}

// roomFor is chunk with room for one more item after the current trip's (those from first on),
// and where they start in it: chunk itself while it has room; when full, a new chunk holding the
// trip's items and room for about twice the last chunk's size (at least lo, at most hi more) — and
// never less than the trip already has, so that a trip of n items, however large (a peer may send
// any), costs O(n) copying rather than O(n²).
func roomFor[T any](chunk []T, first, lo, hi int) ([]T, int) {
	if len(chunk) < cap(chunk) {
		return chunk, first
	}
	n := len(chunk) - first
	out := make([]T, n, n+max(n, min(max(2*cap(chunk), lo), hi)))
	copy(out, chunk[first:])
	return out, 0
}

func (d *decoder) leg(r *Leg) {
	d.plainLeg(r)
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Flight":
			r.Flight = d.Text()
		case "Seller":
			r.Seller = d.Text()
		case "Alliance":
			r.Alliance = d.Text()
		case "Src":
			r.Src = d.Text()
		case "Dst":
			r.Dst = d.Text()
		case "Departure":
			r.Departure = d.Text()
		case "Arrival":
			r.Arrival = d.Text()
		case "Price":
			r.Price = d.Text()
		case "Seats":
			r.Seats = d.Int()
		default:
			d.Skip()
		}
	}
}

// appendFlight decodes a flight onto list. The first tells about how many follow (the rest of
// the body at its size, at most maxFlightsGuess): a holder's list of thousands is allocated once,
// not grown by doubling (a list followed by another gets room for both).
func (d *decoder) appendFlight(list []Flight) []Flight {
	if list != nil {
		list = append(list, Flight{})
		d.flight(&list[len(list)-1])
		return list
	}
	before := d.Remaining()
	var first Flight
	d.flight(&first)
	list = make([]Flight, 1, min(before/max(before-d.Remaining(), 1)+1, maxFlightsGuess))
	list[0] = first
	return list
}

// maxFlightsGuess bounds the flights appendFlight allocates room for from the size of the first.
const maxFlightsGuess = 1 << 14

func (d *decoder) relevant(r *RelevantFlightsResponse) {
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Sellers":
			r.Sellers = append(r.Sellers, d.Text())
		case "Flights":
			r.Flights = d.appendFlight(r.Flights)
		default:
			d.Skip()
		}
	}
}

func (d *decoder) relevantBoth(r *RelevantBothResponse) {
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Sellers":
			r.Sellers = append(r.Sellers, d.Text())
		case "FromSrc":
			r.FromSrc = d.appendFlight(r.FromSrc)
		case "ToDst":
			r.ToDst = d.appendFlight(r.ToDst)
		default:
			d.Skip()
		}
	}
}

func (d *decoder) sellerPage(r *SellerPage) {
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Seller":
			r.Seller = d.Text()
		case "Version":
			r.Version = d.Text()
		case "Flights":
			r.Flights = d.appendFlight(r.Flights)
		case "NextCursor":
			r.NextCursor = d.Text()
		default:
			d.Skip()
		}
	}
}

func (d *decoder) flight(r *Flight) {
	d.plainFlight(r)
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Flight":
			r.Flight = d.UniqueText()
		case "Seller":
			r.Seller = d.Text()
		case "Src":
			r.Src = d.Text()
		case "Dst":
			r.Dst = d.Text()
		case "Departure":
			r.Departure = d.Text()
		case "Arrival":
			r.Arrival = d.Text()
		case "Price":
			r.Price = d.Text()
		case "Seats":
			r.Seats = d.Int()
		default:
			d.Skip()
		}
	}
}
