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

// trip is a validated trip with its sort keys decoded once.
type trip struct {
	Trip
	cents     int64
	departure time.Time // of the first leg
	arrival   time.Time // of the last leg
}

// Merge turns the delegates' answers into one search answer: the trips of every alliance that
// answered, each leg stamped with its alliance, filtered by the query's nonstop and max_price,
// sorted in the query's order (see Order: total, so equal data always gives equal bytes), and cut
// to the window of its offset and limit. Total counts the trips of the whole list: each
// alliance's Total (it may have sent only the top of its list), less what the search server
// refused of what it sent. An alliance that did not answer, answered with a malformed trip, or
// reported missing sellers is incomplete, and so is the whole answer. Merge is pure: the order of
// answers does not matter.
func Merge(q Query, answers []DelegateAnswer) Answer {
	ans := Answer{
		Query:     q.echo(),
		Trips:     []Trip{},
		Complete:  true,
		Alliances: make([]AllianceStatus, 0, len(answers)),
	}
	sorted := slices.Clone(answers)
	slices.SortStableFunc(sorted, func(a, b DelegateAnswer) int { return cmp.Compare(a.Alliance, b.Alliance) })

	var trips []trip
	for _, a := range sorted {
		st, ts, total := mergeOne(q, a)
		ans.Alliances = append(ans.Alliances, st)
		ans.Complete = ans.Complete && st.Complete
		ans.Total += total
		trips = append(trips, ts...)
	}
	slices.SortFunc(trips, func(a, b trip) int { return q.Sort.compare(&a, &b) })
	lo := min(q.Offset, len(trips))
	hi := len(trips)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, hi)
	}
	ans.Trips = make([]Trip, 0, hi-lo)
	for i := lo; i < hi; i++ {
		ans.Trips = append(ans.Trips, trips[i].Trip)
	}
	return ans
}

// mergeOne validates one alliance's answer: its status, the trips it sent that the query keeps,
// and how many trips its whole list has.
func mergeOne(q Query, a DelegateAnswer) (AllianceStatus, []trip, int) {
	st := AllianceStatus{Name: a.Alliance, MissingSellers: []string{}}
	switch {
	case a.Err != nil:
		st.Error = a.Err.Error()
		return st, nil, 0
	case a.Resp == nil:
		st.Error = "delegate returned no answer"
		return st, nil, 0
	}
	trips := make([]trip, 0, len(a.Resp.Trips))
	for i, wt := range a.Resp.Trips {
		t, err := convertTrip(a.Alliance, wt)
		if err != nil {
			st.Error = fmt.Sprintf("malformed answer: trip %d: %v", i+1, err)
			return st, nil, 0
		}
		// The delegate should have filtered; the answer must honour the query anyway.
		if (q.Sellers != nil && !allSellersIn(t.Legs, q.Sellers)) || !q.keeps(&t) {
			continue
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
	// A delegate that does not count (Total 0) sent its whole list.
	total := max(a.Resp.Total, len(a.Resp.Trips)) - (len(a.Resp.Trips) - len(trips))
	return st, trips, total
}

func convertTrip(alliance string, wt soap.Trip) (trip, error) {
	if n := len(wt.Legs); n < 1 || n > 2 {
		return trip{}, fmt.Errorf("%d legs, expected 1 or 2", n)
	}
	t := trip{Trip: Trip{Legs: make([]Leg, 0, len(wt.Legs))}}
	for j, wl := range wt.Legs {
		l, cents, dep, arr, err := convertLegTimes(alliance, wl)
		if err != nil {
			return trip{}, fmt.Errorf("leg %d: %w", j+1, err)
		}
		if j == 0 {
			t.departure = dep
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

// convertLeg validates a leg of a delegate's answer: the leg with its alliance and normalised
// price, its price in cents and its arrival.
func convertLeg(alliance string, wl soap.Leg) (Leg, int64, time.Time, error) {
	l, cents, _, arr, err := convertLegTimes(alliance, wl)
	return l, cents, arr, err
}

// convertLegTimes is convertLeg that also gives the departure.
func convertLegTimes(alliance string, wl soap.Leg) (l Leg, cents int64, dep, arr time.Time, err error) {
	cents, err = parseCents(wl.Price)
	if err != nil {
		return Leg{}, 0, dep, arr, err
	}
	dep, err = time.Parse(time.RFC3339, wl.Departure)
	if err != nil {
		return Leg{}, 0, dep, arr, fmt.Errorf("departure %q is not an RFC 3339 instant", clip(wl.Departure))
	}
	arr, err = time.Parse(time.RFC3339, wl.Arrival)
	if err != nil {
		return Leg{}, 0, dep, arr, fmt.Errorf("arrival %q is not an RFC 3339 instant", clip(wl.Arrival))
	}
	if !arr.After(dep) {
		return Leg{}, 0, dep, arr, fmt.Errorf("flight %q arrives at %s, not after its departure", clip(wl.Flight), wl.Arrival)
	}
	if wl.Flight == "" || wl.Seller == "" {
		return Leg{}, 0, dep, arr, fmt.Errorf("flight %q of seller %q: missing flight number or seller", clip(wl.Flight), clip(wl.Seller))
	}
	if wl.Seats < 0 {
		return Leg{}, 0, dep, arr, fmt.Errorf("flight %q has %d seats", clip(wl.Flight), wl.Seats)
	}
	return Leg{
		Flight: wl.Flight, Seller: wl.Seller, Alliance: alliance,
		Src: wl.Src, Dst: wl.Dst, Departure: wl.Departure, Arrival: wl.Arrival,
		Price: formatCents(cents), Seats: wl.Seats,
	}, cents, dep, arr, nil
}

func allSellersIn(legs []Leg, sellers []string) bool {
	for _, l := range legs {
		if !slices.Contains(sellers, l.Seller) {
			return false
		}
	}
	return true
}
