package search

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"flightalliance/internal/metricstest"
	"flightalliance/soap"
)

// heldDelegate answers every call with starTrips once release is closed, counting the calls.
type heldDelegate struct {
	release chan struct{}
	calls   atomic.Int32
}

func (d *heldDelegate) GetTrips(ctx context.Context, _ soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	d.calls.Add(1)
	select {
	case <-d.release:
		r := starTrips
		return &r, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func newHeldServer(t *testing.T, d *heldDelegate, cfg Config) *Server {
	cfg.Logger = slog.New(slog.DiscardHandler)
	cfg.Dial = func(string) (Delegate, error) { return d, nil }
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Registry().Register("star", "http://star.example/soap")
	return s
}

func (s *Server) searchCode(q string) (int, http.Header) {
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/Services/FlightsSearch/flight?"+q, nil))
	return rec.Code, rec.Header()
}

func TestEqualSearchesShareOneCallToTheAlliance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &heldDelegate{release: make(chan struct{})}
		s := newHeldServer(t, d, Config{OrderedSearches: -1}) // all five at once, none waiting its turn
		codes := make([]int, 5)
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() { codes[i], _ = s.searchCode(query) })
		}
		wg.Go(func() { codes[4], _ = s.searchCode(query + "&limit=5") }) // another request
		synctest.Wait()
		if n := d.calls.Load(); n != 2 {
			t.Errorf("%d calls to the alliance for four equal searches and another; want 2", n)
		}
		close(d.release)
		wg.Wait()
		allOK(t, codes)
		if n := metricstest.Counter(t, s.metrics.sharedCalls.WithLabelValues("star")); n != 3 {
			t.Errorf("%v searches counted as sharing a call; want the 3 that joined the first's", n)
		}
	})
}

func TestASearchThatCannotStartInTimeIs503WithRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &heldDelegate{release: make(chan struct{})}
		s := newHeldServer(t, d, Config{MaxSearches: 1, QueueTimeout: 1500 * time.Millisecond})
		var first int
		var wg sync.WaitGroup
		wg.Go(func() { first, _ = s.searchCode(query) }) // holds the one slot
		synctest.Wait()
		start := time.Now()
		code, h := s.searchCode(query + "&limit=5")
		if took := time.Since(start); code != http.StatusServiceUnavailable || h.Get("Retry-After") != "2" || took != 1500*time.Millisecond {
			t.Errorf("a search with no slot free: %d, Retry-After %q after %v; want 503, 2 after the queue timeout, 1.5s",
				code, h.Get("Retry-After"), took)
		}
		close(d.release)
		wg.Wait()
		if code, _ := s.searchCode(query); first != http.StatusOK || code != http.StatusOK {
			t.Errorf("the search that held the slot: %d, the one after it: %d; want 200 and 200", first, code)
		}
	})
}

// TestASearchWaitsItsTurnBriefly: beyond --ordered-searches, a search waits for a turn, first
// come first served, but never longer than --order-wait: then it runs beside the turns.
func TestASearchWaitsItsTurnBriefly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &heldDelegate{release: make(chan struct{})}
		s := newHeldServer(t, d, Config{OrderedSearches: 1, OrderWait: 200 * time.Millisecond})
		codes := make([]int, 2)
		var wg sync.WaitGroup
		wg.Go(func() { codes[0], _ = s.searchCode(query) }) // takes the one turn
		synctest.Wait()
		start := time.Now()
		wg.Go(func() { codes[1], _ = s.searchCode(query + "&limit=5") })
		synctest.Wait()
		if n := d.calls.Load(); n != 1 {
			t.Errorf("%d calls to the alliance while the second search should wait its turn; want 1", n)
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if n := d.calls.Load(); n != 2 || time.Since(start) != 200*time.Millisecond {
			t.Errorf("%d calls after %v; want the second search's call too, after the 200ms --order-wait", n, time.Since(start))
		}
		close(d.release)
		wg.Wait()
		allOK(t, codes)
		if n := metricstest.Counter(t, s.metrics.ordered.WithLabelValues("waited_out")); n != 1 {
			t.Errorf("search_ordered_total{how=\"waited_out\"} %v, want 1", n)
		}
	})
}

// allOK checks that every search was answered 200.
func allOK(t *testing.T, codes []int) {
	t.Helper()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("search %d: %d, want 200", i, c)
		}
	}
}
