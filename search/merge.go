package search

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"flightalliance/soap"
)

// DelegateAnswer is what one registered alliance's delegate answered, or why it did not.
type DelegateAnswer struct {
	Alliance string // the registration name; stamped on every leg
	Resp     *soap.GetTripsResponse
	Err      error
}

// trip is a validated trip of a delegate's answer with its sort keys decoded once. Its legs stay
// the delegate's: the answer shows them stamped with the alliance's registration name and with
// prices written as API.md writes them (see appendTripJSON and materialize).
type trip struct {
	w         *soap.Trip
	alliance  string
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
	m := merge(q, answers)
	m.ans.Trips = make([]Trip, len(m.window))
	nlegs := 0
	for _, t := range m.window {
		nlegs += len(t.w.Legs)
	}
	legs := make([]Leg, 0, nlegs)
	for i, t := range m.window {
		m.ans.Trips[i], legs = t.materialize(legs)
	}
	return m.ans
}

// merged is Merge's answer before its trips are written out: the search server writes the
// window's JSON straight from the delegates' trips (appendJSON), the same bytes as Merge's
// answer's AppendJSON.
type merged struct {
	ans    Answer // Trips is nil
	window []trip
}

func merge(q Query, answers []DelegateAnswer) merged {
	m := merged{ans: Answer{
		Query:     q.echo(),
		Complete:  true,
		Alliances: make([]AllianceStatus, 0, len(answers)),
	}}
	sorted := slices.Clone(answers)
	slices.SortStableFunc(sorted, func(a, b DelegateAnswer) int { return cmp.Compare(a.Alliance, b.Alliance) })

	lists := make([][]trip, 0, len(sorted))
	for _, a := range sorted {
		st, ts, total := mergeOne(q, a)
		m.ans.Alliances = append(m.ans.Alliances, st)
		m.ans.Complete = m.ans.Complete && st.Complete
		m.ans.Total += total
		if len(ts) > 0 {
			lists = append(lists, ts)
		}
	}
	m.window = window(q, lists)
	return m
}

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

// window merges the alliances' lists, each in q's order, and returns the trips of the window of
// q's offset and limit.
func window(q Query, lists [][]trip) []trip {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	lo := min(q.Offset, n)
	hi := n
	if q.Limit > 0 {
		hi = min(lo+q.Limit, hi)
	}
	if len(lists) == 1 {
		return lists[0][lo:hi]
	}
	out := make([]trip, 0, hi-lo)
	heads := make([]int, len(lists))
	for k := range hi {
		best := -1
		for i, l := range lists {
			if heads[i] < len(l) && (best < 0 || q.Sort.compare(&l[heads[i]], &lists[best][heads[best]]) < 0) {
				best = i
			}
		}
		if k >= lo {
			out = append(out, lists[best][heads[best]])
		}
		heads[best]++
	}
	return out
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
	for i := range a.Resp.Trips {
		t, err := convertTrip(a.Alliance, &a.Resp.Trips[i])
		if err != nil {
			st.Error = fmt.Sprintf("malformed answer: trip %d: %v", i+1, err)
			return st, nil, 0
		}
		// The delegate should have filtered; the answer must honour the query anyway.
		if (q.Sellers != nil && !allSellersIn(t.w.Legs, q.Sellers)) || !q.keeps(&t) {
			continue
		}
		trips = append(trips, t)
	}
	// A delegate sends its list in the asked order: checking costs a comparison a trip, and then
	// the lists are merged rather than sorted. A whole list in another order is sorted here; the
	// top of a list cut in another order is not the top of the list, and cannot be used.
	if !inOrder(q.Sort, trips) {
		if len(a.Resp.Trips) < a.Resp.Total {
			st.Error = fmt.Sprintf("malformed answer: the top %d of %d trips, not in the order asked (sort=%s)", len(a.Resp.Trips), a.Resp.Total, q.Sort)
			return st, nil, 0
		}
		slices.SortFunc(trips, func(a, b trip) int { return q.Sort.compare(&a, &b) })
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

func inOrder(o Order, trips []trip) bool {
	for i := 1; i < len(trips); i++ {
		if o.compare(&trips[i-1], &trips[i]) > 0 {
			return false
		}
	}
	return true
}

// convertTrip validates a trip of a delegate's answer (one or two valid legs, a price that is
// their sum) and decodes its sort keys.
func convertTrip(alliance string, wt *soap.Trip) (trip, error) {
	if n := len(wt.Legs); n < 1 || n > 2 {
		return trip{}, fmt.Errorf("%d legs, expected 1 or 2", n)
	}
	t := trip{w: wt, alliance: alliance}
	for j := range wt.Legs {
		cents, dep, arr, err := checkLeg(&wt.Legs[j])
		if err != nil {
			return trip{}, fmt.Errorf("leg %d: %w", j+1, err)
		}
		if j == 0 {
			t.departure = dep
		}
		t.cents += cents
		t.arrival = arr
	}
	if wt.Price != "" {
		c, err := centsOf(wt.Price)
		if err != nil {
			return trip{}, err
		}
		if c != t.cents {
			return trip{}, fmt.Errorf("price %q is not the sum of its legs (%s)", wt.Price, formatCents(t.cents))
		}
	}
	return t, nil
}

// convertLeg validates a leg of a delegate's answer: the leg with its alliance and normalised
// price, its price in cents and its arrival.
func convertLeg(alliance string, wl soap.Leg) (Leg, int64, time.Time, error) {
	cents, _, arr, err := checkLeg(&wl)
	if err != nil {
		return Leg{}, 0, time.Time{}, err
	}
	return Leg{
		Flight: wl.Flight, Seller: wl.Seller, Alliance: alliance,
		Src: wl.Src, Dst: wl.Dst, Departure: wl.Departure, Arrival: wl.Arrival,
		Price: priceString(wl.Price, cents), Seats: wl.Seats,
	}, cents, arr, nil
}

// checkLeg validates a leg of a delegate's answer and returns its price in cents, departure and
// arrival.
func checkLeg(wl *soap.Leg) (cents int64, dep, arr time.Time, err error) {
	cents, err = centsOf(wl.Price)
	if err != nil {
		return 0, dep, arr, err
	}
	dep, err = parseInstant(wl.Departure)
	if err != nil {
		return 0, dep, arr, fmt.Errorf("departure %q is not an RFC 3339 instant", clip(wl.Departure))
	}
	arr, err = parseInstant(wl.Arrival)
	if err != nil {
		return 0, dep, arr, fmt.Errorf("arrival %q is not an RFC 3339 instant", clip(wl.Arrival))
	}
	if !arr.After(dep) {
		return 0, dep, arr, fmt.Errorf("flight %q arrives at %s, not after its departure", clip(wl.Flight), wl.Arrival)
	}
	if wl.Flight == "" || wl.Seller == "" {
		return 0, dep, arr, fmt.Errorf("flight %q of seller %q: missing flight number or seller", clip(wl.Flight), clip(wl.Seller))
	}
	if wl.Seats < 0 {
		return 0, dep, arr, fmt.Errorf("flight %q has %d seats", clip(wl.Flight), wl.Seats)
	}
	return cents, dep, arr, nil
}

// priceString is cents as API.md writes prices ("512.00"): s itself when s, which parseCents
// read as cents, is already written so (as delegates write prices), else a new string.
func priceString(s string, cents int64) string {
	n := len(s)
	if n >= 4 && s[n-3] == '.' && (s[0] != '0' || n == 4) {
		return s
	}
	return formatCents(cents)
}

// parseInstant is time.Parse(time.RFC3339, s), without its cost for the form delegates send
// ("2026-12-01T08:00:00Z"); any other form, and any value out of range, is left to time.Parse.
func parseInstant(s string) (time.Time, error) {
	if len(s) == 20 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == 'Z' {
		y, ok1 := digits(s[0:4])
		mo, ok2 := digits(s[5:7])
		d, ok3 := digits(s[8:10])
		h, ok4 := digits(s[11:13])
		mi, ok5 := digits(s[14:16])
		sec, ok6 := digits(s[17:19])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(mo, y) &&
			h < 24 && mi < 60 && sec < 60 {
			return time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC), nil
		}
	}
	return time.Parse(time.RFC3339, s)
}

// daysIn is the number of days of month mo (1-12) of year y.
func daysIn(mo, y int) int {
	switch mo {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// centsOf is parseCents, without its cost for the form delegates send ("512.00").
func centsOf(s string) (int64, error) {
	n := len(s)
	if n >= 4 && n <= 15 && s[n-3] == '.' {
		whole, ok1 := digits(s[:n-3])
		frac, ok2 := digits(s[n-2:])
		if ok1 && ok2 {
			return int64(whole)*100 + int64(frac), nil
		}
	}
	return parseCents(s)
}

// digits reads a fixed-width run of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func allSellersIn(legs []soap.Leg, sellers []string) bool {
	for _, l := range legs {
		if !slices.Contains(sellers, l.Seller) {
			return false
		}
	}
	return true
}
