package merge

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"flightalliance/contract"
	"flightalliance/soap"
)

// DelegateAnswer is what one registered alliance's delegate answered, or why it did not.
type DelegateAnswer struct {
	Alliance string // the registration name; stamped on every leg
	Resp     *soap.GetTripsResponse
	Err      error
}

// trip is a validated trip of a delegate's answer with its sort keys decoded once. Its legs stay
// the delegate's (shared by the trips that name the same shared leg): the answer shows them
// stamped with the alliance's registration name and with prices written as docs/api.md writes them
// (see appendJSON and materialize).
type trip struct {
	price     string // as the delegate wrote it
	legs      []*validLeg
	alliance  string
	cents     contract.Cents
	departure time.Time // of the first leg
	arrival   time.Time // of the last leg
}

// Merge turns the delegates' answers into one search answer: the trips of every alliance that
// answered, each leg stamped with its alliance, filtered by the query's nonstop and max_price,
// sorted in the query's order (see compare: total, so equal data always gives equal bytes), and cut
// to the window of its offset and limit. Total counts the trips of the whole list: each
// alliance's Total (it may have sent only the top of its list), less what the search server
// refused of what it sent. An alliance that did not answer, answered with a malformed trip, or
// reported missing sellers is incomplete, and so is the whole answer. Merge is pure: the order of
// answers does not matter.
func Merge(q Query, answers []DelegateAnswer) Answer {
	m := MergeWindow(q, answers)
	m.Answer.Trips = make([]Trip, len(m.window))
	nlegs := 0
	for _, t := range m.window {
		nlegs += len(t.legs)
	}
	legs := make([]Leg, 0, nlegs)
	for i, t := range m.window {
		m.Answer.Trips[i], legs = t.materialize(legs)
	}
	return m.Answer
}

// Merged is Merge's answer before its trips are written out: the search server writes the
// window's JSON straight from the delegates' trips (Merged.AppendJSON), the same bytes as
// Merge's answer's AppendJSON.
type Merged struct {
	Answer Answer // Trips is nil
	window []trip
}

// MergeWindow is Merge without making the window's trips: they stay the delegates', to be
// written out by AppendJSON.
func MergeWindow(q Query, answers []DelegateAnswer) Merged {
	m := Merged{Answer: Answer{
		Query:     q.Echo(),
		Complete:  true,
		Alliances: make([]AllianceStatus, 0, len(answers)),
	}}
	sorted := slices.Clone(answers)
	slices.SortStableFunc(sorted, func(a, b DelegateAnswer) int { return cmp.Compare(a.Alliance, b.Alliance) })

	lists := make([][]trip, 0, len(sorted))
	for _, a := range sorted {
		st, ts, total := mergeOne(q, a)
		m.Answer.Alliances = append(m.Answer.Alliances, st)
		m.Answer.Complete = m.Answer.Complete && st.Complete
		m.Answer.Total += total
		if len(ts) > 0 {
			lists = append(lists, ts)
		}
	}
	m.window = window(q, lists)
	return m
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
			if heads[i] < len(l) && (best < 0 || compare(q.Sort, &l[heads[i]], &lists[best][heads[best]]) < 0) {
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
	case a.Resp.NotModified: // handled before merging (by the search server, which asks again in full); never an empty part
		st.Error = "malformed answer: NotModified outside a conditional exchange"
		return st, nil, 0
	}
	if err := checkTotal(a.Resp.Total, len(a.Resp.Trips)); err != nil {
		st.Error = err.Error()
		return st, nil, 0
	}
	conv, err := newConverter(a.Alliance, q, a.Resp)
	if err != nil {
		st.Error = fmt.Sprintf("malformed answer: %v", err)
		return st, nil, 0
	}
	trips := make([]trip, 0, len(a.Resp.Trips))
	for i := range a.Resp.Trips {
		t, err := conv.trip(&a.Resp.Trips[i])
		if err != nil {
			st.Error = fmt.Sprintf("malformed answer: trip %d: %v", i+1, err)
			return st, nil, 0
		}
		// The delegate should have filtered; the answer must honour the query anyway.
		if (q.Sellers != nil && !allSellersIn(t.legs, q.Sellers)) || !q.keeps(&t) {
			continue
		}
		trips = append(trips, t)
	}
	if err := checkCut(q, a.Resp.Total, len(a.Resp.Trips), len(trips)); err != nil {
		st.Error = fmt.Sprintf("malformed answer: %v", err)
		return st, nil, 0
	}
	// A delegate sends its list in the asked order: checking costs a comparison a trip, and then
	// the lists are merged rather than sorted. A whole list in another order is sorted here; the
	// top of a list cut in another order is not the top of the list, and cannot be used.
	if !inOrder(q.Sort, trips) {
		if len(a.Resp.Trips) < a.Resp.Total {
			st.Error = fmt.Sprintf("malformed answer: the top %d of %d trips, not in the order asked (sort=%s)", len(a.Resp.Trips), a.Resp.Total, q.Sort)
			return st, nil, 0
		}
		slices.SortFunc(trips, func(a, b trip) int { return compare(q.Sort, &a, &b) })
	}
	// A flight is one flight: the answer's trips may not show it twice, nor with two sets of
	// values (sorted, two copies of a trip are neighbours: the order is total).
	if err := conv.distinctFlights(); err != nil {
		st.Error = fmt.Sprintf("malformed answer: %v", err)
		return st, nil, 0
	}
	for i := 1; i < len(trips); i++ {
		if compare(q.Sort, &trips[i-1], &trips[i]) == 0 {
			st.Error = fmt.Sprintf("malformed answer: a trip twice (%s)", tripFlights(&trips[i]))
			return st, nil, 0
		}
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

// maxTotal bounds the Total an alliance may report: the largest integer a JSON client in
// JavaScript reads exactly. The sum over alliances then cannot overflow.
const maxTotal = 1 << 53

// checkTotal refuses a Total that cannot count the list the trips were sent from: negative,
// beyond maxTotal, or fewer than the trips sent (0 is a delegate that does not count: its whole
// list was sent). Its error is the alliance's whole error ("malformed answer: Total …"), which
// names the field as the SOAP answer spells it.
func checkTotal(total, sent int) error {
	switch {
	case total < 0 || total > maxTotal:
		return fmt.Errorf("malformed answer: Total %d is not a count of trips", total)
	case total > 0 && total < sent:
		return fmt.Errorf("malformed answer: Total %d, fewer than the %d trips sent", total, sent)
	}
	return nil
}

// checkCut refuses a list cut short (fewer trips sent than its total) that cannot be the top of
// the list the query asks for: some of its trips are not the query's (a delegate that did not
// apply a filter: the top of its list is not the top of the query's), or it holds fewer than the
// top asked (every trip to the end of the page; the whole list when no limit). Another
// alliance's trips would fill the places of the missing ones, in an answer that looks complete.
func checkCut(q Query, total, sent, kept int) error {
	if sent >= total {
		return nil // the whole list
	}
	if kept < sent {
		return fmt.Errorf("the top %d of %d trips, %d of them not the query's (nonstop, max_price or servers not applied)", sent, total, sent-kept)
	}
	asked := total
	if wanted := q.Wanted(); wanted > 0 {
		asked = min(total, wanted)
	}
	if sent < asked {
		return fmt.Errorf("%d trips of %d, where the top %d were asked", sent, total, asked)
	}
	return nil
}

func inOrder(o contract.Order, trips []trip) bool {
	for i := 1; i < len(trips); i++ {
		if compare(o, &trips[i-1], &trips[i]) > 0 {
			return false
		}
	}
	return true
}

func allSellersIn(legs []*validLeg, sellers []string) bool {
	for _, l := range legs {
		if !slices.Contains(sellers, l.w.Seller) {
			return false
		}
	}
	return true
}
