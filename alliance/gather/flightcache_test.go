package gather

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"flightalliance/alliance/ledger"
	"flightalliance/internal/metricstest"
	"flightalliance/soap"
)

func newFlightCacheSearch(t *testing.T, a Alliance, flights int) (*Search, Metrics) {
	t.Helper()
	m := testMetrics()
	// No answer cache: every search computes, so what is asked is the flight cache's doing.
	s := New(Config{Alliance: "star", MinConnection: 30 * time.Minute, FlightsCache: flights}, a, ledger.NewSeats("star"), m)
	return s, m
}

func testMetrics() Metrics {
	return Metrics{
		Seconds:          prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "s"}, []string{"cache"}),
		CacheHits:        prometheus.NewCounter(prometheus.CounterOpts{Name: "h"}),
		CacheMisses:      prometheus.NewCounter(prometheus.CounterOpts{Name: "m"}),
		FlightListHits:   prometheus.NewCounter(prometheus.CounterOpts{Name: "fh"}),
		FlightListMisses: prometheus.NewCounter(prometheus.CounterOpts{Name: "fm"}),
	}
}

// search answers src→dst on the schedule's day, whole, and checks it against the same search
// with no cache at all.
func search(t *testing.T, s *Search, src, dst string) *soap.GetTripsResponse {
	t.Helper()
	req := &soap.GetTripsRequest{Src: src, Dst: dst, Date: "2026-12-01"}
	got, err := s.GetTrips(context.Background(), req)
	if err != nil {
		t.Fatalf("%s→%s: %v", src, dst, err)
	}
	sameAsUncached(t, s, req, got)
	return got
}

// sameAsUncached checks an answer of s against the same search with no cache at all.
func sameAsUncached(t *testing.T, s *Search, req *soap.GetTripsRequest, got *soap.GetTripsResponse) {
	t.Helper()
	fresh := &schedule{flights: s.alliance.(*schedule).flights}
	ref, _ := newFlightCacheSearch(t, fresh, 0)
	want, err := ref.GetTrips(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || got.Total != want.Total || !slices.EqualFunc(got.Trips, want.Trips, func(a, b soap.Trip) bool {
		return a.Price == b.Price && slices.Equal(a.Legs, b.Legs)
	}) {
		t.Errorf("%s→%s: %d trips (complete %v), want the %d of an uncached search", req.Src, req.Dst, got.Total, got.Complete, want.Total)
	}
}

// TestFlightCacheAnswersAPairFromAirportsSeenBefore: a pair never searched whose source was
// searched from and whose destination was searched to asks no holder, and answers as an uncached
// search does; a purge (the data may have changed) asks again.
func TestFlightCacheAnswersAPairFromAirportsSeenBefore(t *testing.T) {
	a := hubSchedule(2)
	s, m := newFlightCacheSearch(t, a, 1000)
	search(t, s, "TLV", "JFK")
	search(t, s, "LHR", "CDG")
	if got := a.questions(); len(got) != 4 {
		t.Fatalf("two new pairs asked %v, want each seller once per pair", got)
	}
	if resp := search(t, s, "TLV", "CDG"); !resp.Complete || resp.Total == 0 {
		t.Fatalf("TLV→CDG from kept lists: %+v, want a complete answer with trips", resp)
	}
	if got := a.questions(); len(got) != 0 {
		t.Errorf("TLV→CDG (TLV searched from, CDG searched to) asked %v, want nothing", got)
	}
	if hits, misses := metricstest.Counter(t, m.FlightListHits), metricstest.Counter(t, m.FlightListMisses); hits != 2 || misses != 4 {
		t.Errorf("flight list hits %v, misses %v; want 2 and 4", hits, misses)
	}
	search(t, s, "LHR", "TLV") // LHR kept as a source, TLV never a destination
	if got := a.questions(); !slices.Equal(got, []string{"LY →TLV", "UA →TLV"}) {
		t.Errorf("LHR→TLV asked %v, want both sellers' flights into TLV alone", got)
	}
	search(t, s, "JFK", "TLV") // TLV now kept as a destination, JFK never a source
	if got := a.questions(); !slices.Equal(got, []string{"LY JFK→", "UA JFK→"}) {
		t.Errorf("JFK→TLV asked %v, want both sellers' flights out of JFK alone", got)
	}
	s.Purge()
	search(t, s, "TLV", "CDG")
	if got := a.questions(); len(got) != 2 {
		t.Errorf("after a purge TLV→CDG asked %v, want both sellers again", got)
	}
}

// TestFlightCacheKeepsOnlyWhatItMay: lists asked for before a purge are not kept after it; a
// seller no holder answered for is asked again; lists beyond the budget are not kept.
func TestFlightCacheKeepsOnlyWhatItMay(t *testing.T) {
	t.Run("purged while asking", func(t *testing.T) {
		a := hubSchedule(2)
		s, _ := newFlightCacheSearch(t, a, 1000)
		a.during = s.Purge // the data changed while the holders answered
		search(t, s, "TLV", "JFK")
		a.during = nil
		a.questions()
		search(t, s, "TLV", "JFK")
		if got := a.questions(); len(got) != 2 {
			t.Errorf("asked %v after lists were asked for across a purge, want both sellers again", got)
		}
	})
	t.Run("missing seller", func(t *testing.T) {
		a := hubSchedule(2)
		s, _ := newFlightCacheSearch(t, a, 1000)
		a.fail["UA"] = true
		if resp, _ := s.GetTrips(context.Background(), &soap.GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}); resp.Complete {
			t.Fatalf("UA's holder failed, yet the answer is complete")
		}
		a.fail["UA"] = false
		a.questions()
		search(t, s, "TLV", "JFK")
		if got := a.questions(); !slices.Equal(got, []string{"UA TLV→JFK"}) {
			t.Errorf("asked %v, want UA alone (LY's lists kept, UA's never answered)", got)
		}
	})
	t.Run("missing seller with one side kept", func(t *testing.T) {
		a := hubSchedule(2)
		s, _ := newFlightCacheSearch(t, a, 1000)
		search(t, s, "TLV", "JFK") // keeps both sellers' flights out of TLV
		a.fail["UA"] = true
		a.questions()
		resp, err := s.GetTrips(context.Background(), &soap.GetTripsRequest{Src: "TLV", Dst: "CDG", Date: "2026-12-01"})
		if err != nil {
			t.Fatal(err)
		}
		if got := a.questions(); !slices.Equal(got, []string{"LY →CDG", "UA →CDG"}) {
			t.Errorf("asked %v, want both sellers' flights into CDG alone", got)
		}
		if resp.Complete || !slices.Equal(resp.MissingSellers, []string{"UA"}) {
			t.Fatalf("UA's holder failed: complete %v, missing %v", resp.Complete, resp.MissingSellers)
		}
		for _, tr := range resp.Trips {
			for _, l := range tr.Legs {
				if l.Seller == "UA" {
					t.Fatalf("a trip with UA's kept flight %s although UA is missing", l.Flight)
				}
			}
		}
		if len(resp.Trips) == 0 {
			t.Fatal("no trips of LY")
		}
	})
	t.Run("budget", func(t *testing.T) {
		a := hubSchedule(2)
		perList := 6                // each seller flies 3 routes × 2 a day out of an airport, and into one
		budget := 3 * (perList + 1) // a list counts its flights and one
		s, _ := newFlightCacheSearch(t, a, budget)
		for _, p := range [][2]string{{"TLV", "JFK"}, {"LHR", "CDG"}, {"CDG", "LHR"}} {
			search(t, s, p[0], p[1])
			if s.flights.lists.Size() > int64(budget) {
				t.Fatalf("%d flights kept, budget %d", s.flights.lists.Size(), budget)
			}
		}
		if n := s.flights.lists.Len(); n != 3 {
			t.Errorf("%d lists kept, want the 3 most recent of %d flights each", n, perList)
		}
		small, _ := newFlightCacheSearch(t, a, perList)
		search(t, small, "TLV", "JFK")
		if small.flights.lists.Size() != 0 {
			t.Errorf("%d flights kept with a budget smaller than any list", small.flights.lists.Size())
		}
	})
	t.Run("empty lists are not free", func(t *testing.T) {
		a := hubSchedule(2)
		s, _ := newFlightCacheSearch(t, a, 10)
		for day := 2; day <= 28; day++ { // days without flights: every list empty
			req := &soap.GetTripsRequest{Src: "TLV", Dst: "JFK", Date: fmt.Sprintf("2026-12-%02d", day)}
			if _, err := s.GetTrips(context.Background(), req); err != nil {
				t.Fatal(err)
			}
		}
		if n := s.flights.lists.Len(); n > 10 || s.flights.lists.Size() > 10 {
			t.Errorf("%d empty lists kept, counting %d, with a budget of 10", n, s.flights.lists.Size())
		}
	})
}
