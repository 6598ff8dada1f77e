package soap

import "fmt"

// A getTrips answer repeats its flights: a 2,700-trip list of one-stop connections is made of a
// few hundred flights, each the leg of many trips, and written inline each leg is ~300 bytes of
// XML that the delegate encodes and the search server decodes again and again. A caller that sets
// GetTripsRequest.ShareLegs gets the answer with each distinct leg once, in SharedLegs, and each
// trip naming its legs by position in LegIndexes (about a fifth of the bytes), and can validate and
// write each leg once (the search server does). A machine that does not know ShareLegs ignores it
// and answers inline: a caller that asks it takes both forms. ShareLegs and InlineLegs turn an
// answer from one form into the other, for a SOAP server or client in Go that has one and wants
// the other (the airline server makes the shared form from its trips directly, and the search
// server reads it as it is).

// ShareLegs returns the answer with its trips' legs listed once each in SharedLegs and named by
// position in each trip's LegIndexes (equal legs are one entry). r is not changed: its trips may
// be shared by other answers.
func (r *GetTripsResponse) ShareLegs() *GetTripsResponse {
	out := *r
	if len(r.Trips) == 0 || len(r.SharedLegs) > 0 {
		return &out
	}
	positions := make(map[Leg]int, len(r.Trips)/4)
	n := 0
	for i := range r.Trips {
		n += len(r.Trips[i].Legs)
	}
	indexes := make([]int, 0, n)
	out.Trips = make([]Trip, len(r.Trips))
	for i := range r.Trips {
		t := &r.Trips[i]
		first := len(indexes)
		for j := range t.Legs {
			at, ok := positions[t.Legs[j]]
			if !ok {
				at = len(out.SharedLegs)
				positions[t.Legs[j]] = at
				out.SharedLegs = append(out.SharedLegs, t.Legs[j])
			}
			indexes = append(indexes, at)
		}
		out.Trips[i] = Trip{Price: t.Price, LegIndexes: indexes[first:len(indexes):len(indexes)]}
	}
	return &out
}

// InlineLegs turns an answer with SharedLegs into one with every trip's legs inline (LegIndexes
// and SharedLegs emptied), as if ShareLegs had not been asked. An index that is not a position in
// SharedLegs, or a trip with both inline legs and indexes, is an error naming the trip; r is then
// unchanged. An answer without shared legs or indexes is left as it is.
func (r *GetTripsResponse) InlineLegs() error {
	n := 0
	for i := range r.Trips {
		t := &r.Trips[i]
		if len(t.LegIndexes) == 0 {
			continue
		}
		if len(t.Legs) > 0 {
			return fmt.Errorf("answer Trips[%d]: both Legs and LegIndexes", i)
		}
		for _, k := range t.LegIndexes {
			if k < 0 || k >= len(r.SharedLegs) {
				return fmt.Errorf("answer Trips[%d].LegIndexes: %d is not a position in SharedLegs (%d legs)", i, k, len(r.SharedLegs))
			}
		}
		n += len(t.LegIndexes)
	}
	if n > 0 {
		legs := make([]Leg, 0, n)
		for i := range r.Trips {
			t := &r.Trips[i]
			if len(t.LegIndexes) == 0 {
				continue
			}
			first := len(legs)
			for _, k := range t.LegIndexes {
				legs = append(legs, r.SharedLegs[k])
			}
			t.Legs, t.LegIndexes = legs[first:len(legs):len(legs)], nil
		}
	}
	r.SharedLegs = nil
	return nil
}
