package search

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"flightalliance/soap"
)

// DelegateAnswer is what one registered alliance's delegate answered, or why it did not.
type DelegateAnswer struct {
	Alliance string // the registration name; stamped on every leg
	Resp     *soap.GetTripsResponse
	Err      error
}

// trip is a validated trip with its sort key decoded once.
type trip struct {
	Trip
	cents   int64
	arrival time.Time
}

// Merge turns the delegates' answers into one search answer: trips of every alliance that
// answered, each leg stamped with its alliance, sorted by price, then final arrival, then flight
// numbers (with further tie-breaks so that equal data always gives equal bytes). An alliance that
// did not answer, answered with a malformed trip, or reported missing sellers is incomplete, and
// so is the whole answer. Merge is pure: the order of answers does not matter.
func Merge(q Query, answers []DelegateAnswer) Answer {
	ans := Answer{
		Query:     QueryEcho{Src: q.Src, Dst: q.Dst, Date: q.Date, Servers: q.Sellers},
		Trips:     []Trip{},
		Complete:  true,
		Alliances: make([]AllianceStatus, 0, len(answers)),
	}
	sorted := slices.Clone(answers)
	slices.SortStableFunc(sorted, func(a, b DelegateAnswer) int { return cmp.Compare(a.Alliance, b.Alliance) })

	var trips []trip
	for _, a := range sorted {
		st, ts := mergeOne(q, a)
		ans.Alliances = append(ans.Alliances, st)
		ans.Complete = ans.Complete && st.Complete
		trips = append(trips, ts...)
	}
	slices.SortFunc(trips, compareTrips)
	for _, t := range trips {
		ans.Trips = append(ans.Trips, t.Trip)
	}
	return ans
}

func mergeOne(q Query, a DelegateAnswer) (AllianceStatus, []trip) {
	st := AllianceStatus{Name: a.Alliance, MissingSellers: []string{}}
	switch {
	case a.Err != nil:
		st.Error = a.Err.Error()
		return st, nil
	case a.Resp == nil:
		st.Error = "delegate returned no answer"
		return st, nil
	}
	trips := make([]trip, 0, len(a.Resp.Trips))
	for i, wt := range a.Resp.Trips {
		t, err := convertTrip(a.Alliance, wt)
		if err != nil {
			st.Error = fmt.Sprintf("malformed answer: trip %d: %v", i+1, err)
			return st, nil
		}
		if q.Sellers != nil && !allSellersIn(t.Legs, q.Sellers) {
			continue // the delegate should have filtered; the answer must honour the filter anyway
		}
		trips = append(trips, t)
	}
	for _, s := range a.Resp.MissingSellers {
		if !slices.Contains(st.MissingSellers, s) {
			st.MissingSellers = append(st.MissingSellers, s)
		}
	}
	slices.Sort(st.MissingSellers)
	st.Complete = a.Resp.Complete && len(st.MissingSellers) == 0
	return st, trips
}

func convertTrip(alliance string, wt soap.Trip) (trip, error) {
	if n := len(wt.Legs); n < 1 || n > 2 {
		return trip{}, fmt.Errorf("%d legs, expected 1 or 2", n)
	}
	t := trip{Trip: Trip{Legs: make([]Leg, 0, len(wt.Legs))}}
	for j, wl := range wt.Legs {
		l, cents, arr, err := convertLeg(alliance, wl)
		if err != nil {
			return trip{}, fmt.Errorf("leg %d: %w", j+1, err)
		}
		t.Legs = append(t.Legs, l)
		t.cents += cents
		t.arrival = arr
	}
	if wt.Price != "" {
		c, err := parseCents(wt.Price)
		if err != nil {
			return trip{}, err
		}
		if c != t.cents {
			return trip{}, fmt.Errorf("price %q is not the sum of its legs (%s)", wt.Price, formatCents(t.cents))
		}
	}
	t.Price = formatCents(t.cents)
	return t, nil
}

func convertLeg(alliance string, wl soap.Leg) (Leg, int64, time.Time, error) {
	cents, err := parseCents(wl.Price)
	if err != nil {
		return Leg{}, 0, time.Time{}, err
	}
	dep, err := time.Parse(time.RFC3339, wl.Departure)
	if err != nil {
		return Leg{}, 0, time.Time{}, fmt.Errorf("departure %q is not an RFC 3339 instant", clip(wl.Departure))
	}
	arr, err := time.Parse(time.RFC3339, wl.Arrival)
	if err != nil {
		return Leg{}, 0, time.Time{}, fmt.Errorf("arrival %q is not an RFC 3339 instant", clip(wl.Arrival))
	}
	if !arr.After(dep) {
		return Leg{}, 0, time.Time{}, fmt.Errorf("flight %q arrives at %s, not after its departure", clip(wl.Flight), wl.Arrival)
	}
	if wl.Flight == "" || wl.Seller == "" {
		return Leg{}, 0, time.Time{}, fmt.Errorf("flight %q of seller %q: missing flight number or seller", clip(wl.Flight), clip(wl.Seller))
	}
	if wl.Seats < 0 {
		return Leg{}, 0, time.Time{}, fmt.Errorf("flight %q has %d seats", clip(wl.Flight), wl.Seats)
	}
	return Leg{
		Flight: wl.Flight, Seller: wl.Seller, Alliance: alliance,
		Src: wl.Src, Dst: wl.Dst, Departure: wl.Departure, Arrival: wl.Arrival,
		Price: formatCents(cents), Seats: wl.Seats,
	}, cents, arr, nil
}

func allSellersIn(legs []Leg, sellers []string) bool {
	for _, l := range legs {
		if !slices.Contains(sellers, l.Seller) {
			return false
		}
	}
	return true
}

// compareTrips is the order of API.md (price, final arrival, flight numbers in order), then
// seller, alliance and the remaining leg fields, so that only identical trips compare equal.
func compareTrips(a, b trip) int {
	if c := cmp.Compare(a.cents, b.cents); c != 0 {
		return c
	}
	if c := a.arrival.Compare(b.arrival); c != 0 {
		return c
	}
	if c := slices.CompareFunc(a.Legs, b.Legs, func(x, y Leg) int { return cmp.Compare(x.Flight, y.Flight) }); c != 0 {
		return c
	}
	return slices.CompareFunc(a.Legs, b.Legs, func(x, y Leg) int {
		return cmp.Or(
			cmp.Compare(x.Seller, y.Seller),
			cmp.Compare(x.Alliance, y.Alliance),
			cmp.Compare(x.Src, y.Src),
			cmp.Compare(x.Dst, y.Dst),
			cmp.Compare(x.Departure, y.Departure),
			cmp.Compare(x.Arrival, y.Arrival),
			cmp.Compare(x.Price, y.Price),
			cmp.Compare(x.Seats, y.Seats),
		)
	})
}
