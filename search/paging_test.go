package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	airtrip "flightalliance/alliance/trip"
	"flightalliance/contract"
	"flightalliance/search/merge"
	"flightalliance/soap"
)

// selecting is a delegate that answers getTrips as the airline does (alliance/gather/search.go): its
// trips filtered, sorted and cut by the request's controls with the airline's own trip package,
// Total counting the filtered list. It records the requests it got.
type selecting struct {
	alliance string
	trips    []airtrip.Trip // in the price order

	mu   sync.Mutex
	reqs []soap.GetTripsRequest
}

func newSelecting(alliance string, trips []airtrip.Trip) *selecting {
	trips = slices.Clone(trips)
	airtrip.Sort(trips)
	return &selecting{alliance: alliance, trips: trips}
}

func (s *selecting) getTrips(_ context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, *req)
	s.mu.Unlock()
	f := airtrip.Filter{Nonstop: req.Nonstop}
	if req.MaxPrice != "" {
		p, err := flight.ParseCents(req.MaxPrice)
		if err != nil {
			return nil, soap.ClientFault("MaxPrice: %v", err)
		}
		f.MaxPrice, f.HasMaxPrice = p, true
	}
	o, err := airtrip.ParseOrder(req.Sort)
	if err != nil {
		return nil, soap.ClientFault("Sort: %v", err)
	}
	page, total := airtrip.Select(s.trips, f, o, req.MaxTrips)
	resp := &soap.GetTripsResponse{Alliance: s.alliance, Complete: true, Total: total}
	for _, t := range page {
		resp.Trips = append(resp.Trips, toWire(t, s.alliance))
	}
	if req.ShareLegs && s.alliance == "sky" { // one alliance answers with its legs shared, one inline
		return resp.ShareLegs(), nil
	}
	return resp, nil
}

func (s *selecting) requests() []soap.GetTripsRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// twoAlliances runs a search server with two selecting delegates whose trips share prices and
// times (and flights: the same seller and number in both), so that every tie-break is used.
func twoAlliances(t *testing.T) (*testServer, map[string]*selecting) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	pool := flightPool(rng, 12)
	ds := map[string]*selecting{
		"sky":  newSelecting("sky", randomAirlineTrips(rng, pool, 60)),
		"star": newSelecting("star", randomAirlineTrips(rng, pool, 60)),
	}
	ts := startSearch(t, Config{DelegateTimeout: 5 * time.Second})
	for name, d := range ds {
		ts.register(t, name, startDelegate(t, d.getTrips).URI)
	}
	return ts, ds
}

func tripKeys(a Answer) []string {
	out := make([]string, len(a.Trips))
	for i, t := range a.Trips {
		out[i] = t.Legs[0].Alliance + ":" + legsID(t)
	}
	return out
}

// TestPagesConcatenateToTheWholeList: for every order and filter, the pages of a list, one after
// the other, are the whole list; every page says the same total, the length of the whole list.
func TestPagesConcatenateToTheWholeList(t *testing.T) {
	ts, _ := twoAlliances(t)
	base := "src=TLV&dst=JFK&date=2026-12-01"
	for _, sort := range []string{"", "&sort=price", "&sort=duration", "&sort=departure", "&sort=arrival"} {
		for _, filter := range []string{"", "&nonstop=true", "&max_price=150", "&nonstop=true&max_price=100.00"} {
			whole := ts.search(t, base+sort+filter)
			if whole.Total != len(whole.Trips) || !whole.Complete {
				t.Fatalf("%s%s: total %d, %d trips, complete %v", sort, filter, whole.Total, len(whole.Trips), whole.Complete)
			}
			want := tripKeys(whole)
			for _, limit := range []int{1, 7, 1000} {
				var got []string
				for offset := 0; offset <= len(want); offset += limit {
					page := ts.search(t, fmt.Sprintf("%s%s%s&limit=%d&offset=%d", base, sort, filter, limit, offset))
					if page.Total != whole.Total {
						t.Fatalf("%s%s limit %d offset %d: total %d, want %d", sort, filter, limit, offset, page.Total, whole.Total)
					}
					if len(page.Trips) > limit {
						t.Fatalf("limit %d: %d trips", limit, len(page.Trips))
					}
					got = append(got, tripKeys(page)...)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s%s: pages of %d are\n%v\nthe whole list is\n%v", sort, filter, limit, got, want)
				}
			}
		}
	}
}

func TestPagingAsksEachAllianceForTheTopOnly(t *testing.T) {
	ts, ds := twoAlliances(t)
	a := ts.search(t, "src=TLV&dst=JFK&date=2026-12-01&limit=5&offset=10&sort=duration&nonstop=true&max_price=120.5")
	if len(a.Trips) > 5 {
		t.Fatalf("%d trips", len(a.Trips))
	}
	want := soap.GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", MaxTrips: 15, Nonstop: true, MaxPrice: "120.50", Sort: "duration", ShareLegs: true}
	for name, d := range ds {
		reqs := d.requests()
		if len(reqs) != 1 {
			t.Fatalf("%s was asked %d times", name, len(reqs))
		}
		reqs[0].XMLName = want.XMLName
		if fmt.Sprintf("%+v", reqs[0]) != fmt.Sprintf("%+v", want) {
			t.Errorf("%s was asked %+v, want %+v", name, reqs[0], want)
		}
	}
	want = soap.GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01", ShareLegs: true}
	ts.search(t, "src=TLV&dst=JFK&date=2026-12-01&offset=3")
	for name, d := range ds {
		reqs := d.requests()
		last := reqs[len(reqs)-1]
		last.XMLName = want.XMLName
		if fmt.Sprintf("%+v", last) != fmt.Sprintf("%+v", want) {
			t.Errorf("without limit %s was asked %+v, want the whole list", name, last)
		}
	}
}

// TestPagingWithDelegatesThatIgnoreTheControls: a delegate that sends its whole list unfiltered
// and does not count (Total 0) still gives the right window and total.
func TestPagingWithDelegatesThatIgnoreTheControls(t *testing.T) {
	resp := &soap.GetTripsResponse{Complete: true, Trips: []soap.Trip{
		wireTrip("512.00", leg("LY001", "TLV", "JFK", "08:00", "19:10", "512.00")),
		wireTrip("430.00", leg("LY007", "TLV", "ATH", "06:00", "08:00", "130.00"), leg("UA220", "ATH", "JFK", "09:30", "20:00", "300.00")),
		wireTrip("300.00", leg("LY009", "TLV", "JFK", "10:00", "21:00", "300.00")),
		wireTrip("200.00", leg("LY011", "TLV", "JFK", "12:00", "17:00", "200.00")),
	}}
	for _, tc := range []struct {
		q     Query
		want  []string
		total int
	}{
		{Query{}, []string{"LY011", "LY009", "LY007+UA220", "LY001"}, 4},
		{Query{Limit: 2, Offset: 1}, []string{"LY009", "LY007+UA220"}, 4},
		{Query{Offset: 3}, []string{"LY001"}, 4},
		{Query{Offset: 4}, nil, 4},
		{Query{Limit: 10, Offset: 400}, nil, 4},
		{Query{Nonstop: true}, []string{"LY011", "LY009", "LY001"}, 3},
		{Query{Nonstop: true, Limit: 1, Offset: 1}, []string{"LY009"}, 3},
		{Query{MaxPrice: 43000, HasMaxPrice: true, Sort: contract.ByDuration}, []string{"LY011", "LY009", "LY007+UA220"}, 3},
		{Query{Sort: contract.ByDeparture, Limit: 2}, []string{"LY007+UA220", "LY001"}, 4},
		{Query{Sort: contract.ByArrival}, []string{"LY011", "LY001", "LY007+UA220", "LY009"}, 4},
		{Query{Sort: contract.ByDuration}, []string{"LY011", "LY009", "LY001", "LY007+UA220"}, 4},
	} {
		q := tc.q
		q.Src, q.Dst, q.Date = "TLV", "JFK", "2026-12-01"
		a := merge.Merge(q, []merge.DelegateAnswer{{Alliance: "star", Resp: resp}})
		if got := flightsOf(a); !slices.Equal(got, tc.want) || a.Total != tc.total || a.Trips == nil {
			t.Errorf("%+v: trips %v total %d, want %v total %d", tc.q, got, a.Total, tc.want, tc.total)
		}
	}
}

// TestTotalIsTheSumOfTheAlliances: each alliance's Total counts its whole list; trips the search
// server refuses (outside the seller filter) are taken off; alliances that did not answer count
// nothing; an incomplete alliance's trips count.
func TestTotalIsTheSumOfTheAlliances(t *testing.T) {
	q := tlvJFK
	q.Sellers = []string{"LY", "AF"}
	q.Limit = 2
	a := merge.Merge(q, []merge.DelegateAnswer{
		{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Total: 2, Trips: []soap.Trip{
			wireTrip("1.00", leg("LY001", "TLV", "JFK", "01:00", "02:00", "1.00")),
			wireTrip("2.00", leg("UA001", "TLV", "JFK", "01:00", "02:00", "2.00")), // not in servers=LY,AF
		}}},
		{Alliance: "sky", Resp: &soap.GetTripsResponse{MissingSellers: []string{"KL"}, Total: 30, Trips: []soap.Trip{
			wireTrip("1.50", leg("AF001", "TLV", "JFK", "01:00", "02:00", "1.50")),
			wireTrip("1.60", leg("AF002", "TLV", "JFK", "01:00", "02:00", "1.60")),
		}}},
		{Alliance: "down", Err: fmt.Errorf("delegate did not answer")},
	})
	if a.Total != 31 || a.Complete || !slices.Equal(flightsOf(a), []string{"LY001", "AF001"}) {
		t.Fatalf("total %d, complete %v, trips %v; want 31, false, [LY001 AF001]", a.Total, a.Complete, flightsOf(a))
	}
}

// TestACutListThatIsNotTheTopIsRefused: a list cut short (fewer trips than its Total) is the top
// of the alliance's list only if every trip is the query's and it holds the top asked; else the
// trips after it, never sent, could belong on the page, and another alliance's would take their
// places in an answer that looks complete. Such an alliance is an error, and the answer
// incomplete.
func TestACutListThatIsNotTheTopIsRefused(t *testing.T) {
	sky := merge.DelegateAnswer{Alliance: "sky", Resp: &soap.GetTripsResponse{Complete: true, Total: 1, Trips: []soap.Trip{
		wireTrip("3.00", leg("AF001", "TLV", "JFK", "01:00", "02:00", "3.00")),
	}}}
	for _, tc := range []struct {
		what  string
		q     Query
		trips []soap.Trip
		total int
	}{
		{"a connection in the top 2 of a nonstop search", Query{Nonstop: true, Limit: 2}, []soap.Trip{
			wireTrip("1.00", leg("LY001", "TLV", "JFK", "01:00", "02:00", "1.00")),
			wireTrip("1.50", leg("LY002", "TLV", "FRA", "01:00", "02:00", "1.00"), leg("LY003", "FRA", "JFK", "03:00", "04:00", "0.50")),
		}, 3},
		{"one trip of the top 2 asked, of 5", Query{Limit: 2}, []soap.Trip{
			wireTrip("1.00", leg("LY001", "TLV", "JFK", "01:00", "02:00", "1.00")),
		}, 5},
		{"one trip of a whole list of 5", Query{}, []soap.Trip{
			wireTrip("1.00", leg("LY001", "TLV", "JFK", "01:00", "02:00", "1.00")),
		}, 5},
	} {
		q := tc.q
		q.Src, q.Dst, q.Date = "TLV", "JFK", "2026-12-01"
		a := merge.Merge(q, []merge.DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Total: tc.total, Trips: tc.trips}}, sky})
		i := slices.IndexFunc(a.Alliances, func(st AllianceStatus) bool { return st.Name == "star" })
		if a.Complete || i < 0 || a.Alliances[i].Error == "" || !slices.Equal(flightsOf(a), []string{"AF001"}) {
			t.Errorf("%s: complete %v, alliances %+v, trips %v; want incomplete, an error for star, sky's trip alone", tc.what, a.Complete, a.Alliances, flightsOf(a))
		}
	}
}

// TestControlsAreValidatedOverHTTP: bad controls are 400s naming the parameter, and the
// alliances are not asked.
func TestControlsAreValidatedOverHTTP(t *testing.T) {
	ts, ds := twoAlliances(t)
	for _, bad := range []struct{ raw, param string }{
		{"limit=0", "limit"}, {"limit=1001", "limit"}, {"offset=-3", "offset"}, {"nonstop=yes", "nonstop"},
		{"max_price=12.345", "max_price"}, {"sort=cheapest", "sort"}, {"page=2", "page"},
	} {
		code, b := do(t, http.MethodGet, ts.URL+"/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01&"+bad.raw, "")
		if code != http.StatusBadRequest || !strings.Contains(string(b), `"error":"`+bad.param+`: `) {
			t.Errorf("%s: %d %s, want 400 naming %s", bad.raw, code, b, bad.param)
		}
	}
	for name, d := range ds {
		if n := len(d.requests()); n != 0 {
			t.Errorf("%s was asked %d times for refused queries", name, n)
		}
	}
}

func TestControlsMatchTheOpenAPIDocument(t *testing.T) {
	ts, _ := twoAlliances(t)
	check := openAPIChecker(t, ts.URL)
	for _, q := range []string{
		"limit=20", "limit=1&offset=3", "offset=1000", "nonstop=true", "nonstop=false", "max_price=150",
		"max_price=99.5", "sort=price", "sort=duration", "sort=departure", "sort=arrival",
		"limit=1000&offset=0&nonstop=true&max_price=0.00&sort=arrival&servers=LY,UA",
	} {
		check(http.MethodGet, "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01&"+q, "", 200)
	}
	for _, q := range []string{"limit=0", "offset=-1", "nonstop=maybe", "max_price=x", "sort=cheap"} {
		check(http.MethodGet, "/Services/FlightsSearch/flight?src=TLV&dst=JFK&date=2026-12-01&"+q, "", 400)
	}
}

// TestAnswerEchoesTheControls: the echo says what the server understood.
func TestAnswerEchoesTheControls(t *testing.T) {
	ts, _ := twoAlliances(t)
	v := url.Values{"src": {"TLV"}, "dst": {"JFK"}, "date": {"2026-12-01"}, "limit": {"3"}, "offset": {"2"},
		"nonstop": {"true"}, "max_price": {"150.5"}, "sort": {"arrival"}}
	a := ts.search(t, v.Encode())
	want := QueryEcho{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Limit: 3, Offset: 2, Nonstop: true, MaxPrice: "150.50", Sort: "arrival"}
	if fmt.Sprintf("%+v", a.Query) != fmt.Sprintf("%+v", want) {
		t.Errorf("echo %+v, want %+v", a.Query, want)
	}
}

// TestACutListInAnotherOrderIsRefused: a delegate that cut its list without sorting it as asked
// sent trips that are not the top of its list: the alliance is reported, not silently short. A
// whole list in another order is simply sorted.
func TestACutListInAnotherOrderIsRefused(t *testing.T) {
	trips := []soap.Trip{ // by price, not by departure
		wireTrip("100.00", leg("LY001", "TLV", "JFK", "12:00", "19:00", "100.00")),
		wireTrip("200.00", leg("LY002", "TLV", "JFK", "08:00", "19:00", "200.00")),
	}
	q := tlvJFK
	q.Sort, q.Limit = contract.ByDeparture, 2
	a := merge.Merge(q, []merge.DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Total: 9, Trips: trips}}})
	if st, _ := status(a, "star"); a.Complete || st.Complete || !strings.Contains(st.Error, "not in the order asked (sort=departure)") || len(a.Trips) != 0 || a.Total != 0 {
		t.Errorf("cut list out of order: %+v", a)
	}
	a = merge.Merge(q, []merge.DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{Complete: true, Total: 2, Trips: trips}}})
	if got := flightsOf(a); !a.Complete || !slices.Equal(got, []string{"LY002", "LY001"}) || a.Total != 2 {
		t.Errorf("whole list out of order: %v %+v", got, a)
	}
}
