package soap

import "flightalliance/soap/xmlcodec"

// The fast decoder's view of the hot response types: each function reads the content of an
// element just started, through its end, as encoding/xml's Unmarshal fills the type — children
// matched by local name in any namespace, a repeated scalar keeps its last value, a slice gets
// an item per occurrence and stays nil without any, unknown children and the element's own
// text are skipped (xmlcodec's NextChild, Skip, Text, Int and Bool read as Unmarshal reads).
// Keep them in step with types.go, as the encoder (codec_encode.go): TestCodecKnowsEveryField
// fails for a field either of them lacks.

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
			r.Trips = append(r.Trips, Trip{})
			d.trip(&r.Trips[len(r.Trips)-1])
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

// trip cuts the trip's legs from a chunk shared by the answer's trips (d.legs), capacity
// capped, rather than allocating a slice per trip.
func (d *decoder) trip(r *Trip) {
	first := len(d.legs)
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Price":
			r.Price = d.Text()
		case "Legs":
			if len(d.legs) == cap(d.legs) {
				chunk := make([]Leg, len(d.legs)-first, min(max(2*cap(d.legs), 64), 1024)+len(d.legs)-first)
				copy(chunk, d.legs[first:])
				d.legs, first = chunk, 0
			}
			d.legs = append(d.legs, Leg{})
			d.leg(&d.legs[len(d.legs)-1])
		case "LegIndexes":
			r.LegIndexes = append(r.LegIndexes, d.Int())
		default:
			d.Skip()
		}
	}
	if end := len(d.legs); end > first {
		r.Legs = d.legs[first:end:end]
	}
}

func (d *decoder) leg(r *Leg) {
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

func (d *decoder) relevant(r *RelevantFlightsResponse) {
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Sellers":
			r.Sellers = append(r.Sellers, d.Text())
		case "Flights":
			r.Flights = append(r.Flights, Flight{})
			d.flight(&r.Flights[len(r.Flights)-1])
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
			r.Flights = append(r.Flights, Flight{})
			d.flight(&r.Flights[len(r.Flights)-1])
		case "NextCursor":
			r.NextCursor = d.Text()
		default:
			d.Skip()
		}
	}
}

func (d *decoder) flight(r *Flight) {
	var t xmlcodec.Token
	for d.NextChild(&t) {
		switch string(t.Local) {
		case "Flight":
			r.Flight = d.Text()
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
