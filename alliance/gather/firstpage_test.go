package gather

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// TestFirstPagesFromTheFirstTrips: a first page (the price order, unfiltered, at most smallPage
// trips) is computed from the list's first trips and count alone, and equals the same page cut
// from the whole list, Total included; it is cached apart, so a later whole list is computed
// (asking the holders again) while later first pages are not; a whole list, once cached, answers
// first pages too. Pages the first trips cannot answer (filters, other orders) compute the whole
// list.
func TestFirstPagesFromTheFirstTrips(t *testing.T) {
	a := hubSchedule(8) // TLV→JFK has more trips than a list of the first ones holds
	s := New(Config{Alliance: "star", MinConnection: 30 * time.Minute, CacheSize: 16}, a, ledger.NewSeats("star"), testMetrics())
	ref, _ := newFlightCacheSearch(t, &schedule{flights: a.flights}, 0)
	get := func(s *Search, req soap.GetTripsRequest) *soap.GetTripsResponse {
		t.Helper()
		req.Src, req.Dst, req.Date = "TLV", "JFK", "2026-12-01"
		resp, err := s.GetTrips(context.Background(), &req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	same := func(what string, got, want *soap.GetTripsResponse) {
		t.Helper()
		if got.Total != want.Total || !got.Complete || !slices.EqualFunc(got.Trips, want.Trips, func(a, b soap.Trip) bool {
			return a.Price == b.Price && slices.Equal(a.Legs, b.Legs)
		}) {
			t.Errorf("%s: %d trips of %d, want %d of %d", what, len(got.Trips), got.Total, len(want.Trips), want.Total)
		}
	}
	whole := get(ref, soap.GetTripsRequest{})
	if whole.Total <= smallPage {
		t.Fatalf("TLV→JFK has %d trips: no more than a list of the first %d holds", whole.Total, smallPage)
	}
	for _, n := range []int{1, 3, smallPage} {
		same("first page of "+strconv.Itoa(n), get(s, soap.GetTripsRequest{MaxTrips: n}), get(ref, soap.GetTripsRequest{MaxTrips: n}))
	}
	if got := a.questions(); len(got) != 2 {
		t.Errorf("first pages asked %v, want one computation (each seller once)", got)
	}
	same("whole list after first pages", get(s, soap.GetTripsRequest{}), whole)
	if got := a.questions(); len(got) != 2 {
		t.Errorf("the whole list asked %v, want a computation of its own (each seller once)", got)
	}
	if s.cache.lru.Contains(firstKey(cacheKey(trip.Query{Src: "TLV", Dst: "JFK", Date: flight.Date{Y: 2026, M: 12, D: 1}}))) {
		t.Errorf("the first trips are still kept beside the whole list")
	}
	same("first page from the whole list", get(s, soap.GetTripsRequest{MaxTrips: 2}), get(ref, soap.GetTripsRequest{MaxTrips: 2}))
	for _, req := range []soap.GetTripsRequest{{MaxTrips: 2, Nonstop: true}, {MaxTrips: 2, Sort: "departure"}, {MaxTrips: 2, MaxPrice: "300.00"}} {
		same("a page not first", get(s, req), get(ref, req))
	}
	if got := a.questions(); len(got) != 0 {
		t.Errorf("pages of a cached whole list asked %v, want nothing", got)
	}
}
