package soap

// The fast decoder's view of the hot response types: each function reads the content of an
// element just started, through its end, as encoding/xml's Unmarshal fills the type — children
// matched by local name in any namespace, a repeated scalar keeps its last value, a slice gets
// an item per occurrence and stays nil without any, unknown children and the element's own
// text are skipped. Keep them in step with types.go, as the encoder (codec_encode.go):
// TestCodecKnowsEveryField fails for a field either of them lacks.

func (s *scanner) getTrips(r *GetTripsResponse) {
	var t token
	for s.next(&t) {
		if t.kind == tkEnd {
			return
		}
		if t.kind != tkStart {
			continue
		}
		switch string(t.local) {
		case "Alliance":
			r.Alliance = s.str()
		case "Trips":
			r.Trips = append(r.Trips, Trip{})
			s.trip(&r.Trips[len(r.Trips)-1])
		case "Complete":
			r.Complete = s.boolean()
		case "MissingSellers":
			r.MissingSellers = append(r.MissingSellers, s.str())
		case "Total":
			r.Total = s.integer()
		default:
			s.skip()
		}
	}
}

// trip cuts the trip's legs from a chunk shared by the answer's trips (s.legs), capacity
// capped, rather than allocating a slice per trip.
func (s *scanner) trip(r *Trip) {
	first := len(s.legs)
	var t token
	for s.next(&t) {
		if t.kind == tkEnd {
			if end := len(s.legs); end > first {
				r.Legs = s.legs[first:end:end]
			}
			return
		}
		if t.kind != tkStart {
			continue
		}
		switch string(t.local) {
		case "Price":
			r.Price = s.str()
		case "Legs":
			if len(s.legs) == cap(s.legs) {
				chunk := make([]Leg, len(s.legs)-first, min(max(2*cap(s.legs), 64), 1024)+len(s.legs)-first)
				copy(chunk, s.legs[first:])
				s.legs, first = chunk, 0
			}
			s.legs = append(s.legs, Leg{})
			s.leg(&s.legs[len(s.legs)-1])
		default:
			s.skip()
		}
	}
}

func (s *scanner) leg(r *Leg) {
	var t token
	for s.next(&t) {
		if t.kind == tkEnd {
			return
		}
		if t.kind != tkStart {
			continue
		}
		switch string(t.local) {
		case "Flight":
			r.Flight = s.str()
		case "Seller":
			r.Seller = s.str()
		case "Alliance":
			r.Alliance = s.str()
		case "Src":
			r.Src = s.str()
		case "Dst":
			r.Dst = s.str()
		case "Departure":
			r.Departure = s.str()
		case "Arrival":
			r.Arrival = s.str()
		case "Price":
			r.Price = s.str()
		case "Seats":
			r.Seats = s.integer()
		default:
			s.skip()
		}
	}
}

func (s *scanner) relevant(r *RelevantFlightsResponse) {
	var t token
	for s.next(&t) {
		if t.kind == tkEnd {
			return
		}
		if t.kind != tkStart {
			continue
		}
		switch string(t.local) {
		case "Sellers":
			r.Sellers = append(r.Sellers, s.str())
		case "Flights":
			r.Flights = append(r.Flights, Flight{})
			s.flight(&r.Flights[len(r.Flights)-1])
		default:
			s.skip()
		}
	}
}

func (s *scanner) sellerPage(r *SellerPage) {
	var t token
	for s.next(&t) {
		if t.kind == tkEnd {
			return
		}
		if t.kind != tkStart {
			continue
		}
		switch string(t.local) {
		case "Seller":
			r.Seller = s.str()
		case "Version":
			r.Version = s.str()
		case "Flights":
			r.Flights = append(r.Flights, Flight{})
			s.flight(&r.Flights[len(r.Flights)-1])
		case "NextCursor":
			r.NextCursor = s.str()
		default:
			s.skip()
		}
	}
}

func (s *scanner) flight(r *Flight) {
	var t token
	for s.next(&t) {
		if t.kind == tkEnd {
			return
		}
		if t.kind != tkStart {
			continue
		}
		switch string(t.local) {
		case "Flight":
			r.Flight = s.str()
		case "Seller":
			r.Seller = s.str()
		case "Src":
			r.Src = s.str()
		case "Dst":
			r.Dst = s.str()
		case "Departure":
			r.Departure = s.str()
		case "Arrival":
			r.Arrival = s.str()
		case "Price":
			r.Price = s.str()
		case "Seats":
			r.Seats = s.integer()
		default:
			s.skip()
		}
	}
}
