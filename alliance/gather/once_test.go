package gather

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// oneHolder is an alliance of one machine holding LY, whose answers wait for release.
type oneHolder struct {
	release chan struct{}
	asks    atomic.Int32
}

func (*oneHolder) Ready() bool                       { return true }
func (*oneHolder) Sellers() []string                 { return []string{"LY"} }
func (*oneHolder) Candidates(string) ([]string, int) { return []string{"m1"}, 1 }
func (*oneHolder) Zone(machine string) string        { return machine }
func (h *oneHolder) Ask(ctx context.Context, _ string, _ trip.Query, _ Sides, sellers []string) (src, dst []flight.Flight, covered []string, heard bool) {
	h.asks.Add(1)
	select {
	case <-h.release:
		return nil, nil, sellers, true
	case <-ctx.Done():
		return nil, nil, nil, false
	}
}

func newOnceSearch(t *testing.T, h *oneHolder, cacheSize int) *Search {
	metrics := Metrics{
		Seconds:     prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "s"}, []string{"cache"}),
		CacheHits:   prometheus.NewCounter(prometheus.CounterOpts{Name: "h"}),
		CacheMisses: prometheus.NewCounter(prometheus.CounterOpts{Name: "m"}),
	}
	s := New(Config{Alliance: "star", CacheSize: cacheSize}, h, ledger.NewSeats("star"), metrics)
	return s
}

var tlvJFK = &soap.GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}

func TestConcurrentColdSearchesShareOneComputation(t *testing.T) {
	for _, cacheSize := range []int{0, 16} { // with the cache off too: what is shared is the computation
		synctest.Test(t, func(t *testing.T) {
			h := &oneHolder{release: make(chan struct{})}
			s := newOnceSearch(t, h, cacheSize)
			shared := prometheus.NewCounter(prometheus.CounterOpts{Name: "shared"})
			s.metrics.SharedComputations = shared
			var wg sync.WaitGroup
			answers := make([]*soap.GetTripsResponse, 5)
			for i := range answers {
				wg.Go(func() {
					resp, err := s.GetTrips(context.Background(), tlvJFK)
					if err != nil {
						t.Errorf("caller %d: %v", i, err)
					}
					answers[i] = resp
				})
			}
			synctest.Wait() // every caller waits on the one computation
			if n := h.asks.Load(); n != 1 {
				t.Fatalf("cache %d: %d calls to the holder for five concurrent searches of one query, want 1", cacheSize, n)
			}
			close(h.release)
			wg.Wait()
			for i, a := range answers {
				if a == nil || !a.Complete {
					t.Errorf("cache %d: caller %d got %+v, want a complete answer", cacheSize, i, a)
				}
			}
			var m dto.Metric
			if err := shared.Write(&m); err != nil {
				t.Fatal(err)
			}
			if n := m.GetCounter().GetValue(); n != 4 {
				t.Errorf("cache %d: %v answers counted as shared; want the 4 that waited for another's computation", cacheSize, n)
			}
		})
	}
}

func TestACallerThatLeavesDoesNotFailTheOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &oneHolder{release: make(chan struct{})}
		s := newOnceSearch(t, h, 0)
		ctx, leave := context.WithCancel(context.Background())
		var first, second error
		var resp *soap.GetTripsResponse
		var wg sync.WaitGroup
		wg.Go(func() { _, first = s.GetTrips(ctx, tlvJFK) }) // starts the computation
		synctest.Wait()
		wg.Go(func() { resp, second = s.GetTrips(context.Background(), tlvJFK) })
		synctest.Wait()
		leave()
		synctest.Wait()
		close(h.release)
		wg.Wait()
		if first == nil {
			t.Errorf("the caller that left got an answer; want a fault")
		}
		if second != nil || resp == nil || !resp.Complete || h.asks.Load() != 1 {
			t.Errorf("the caller that stayed: %+v, %v after %d holder calls; want the complete answer of the one computation", resp, second, h.asks.Load())
		}
	})
}

func TestAPurgeStartsANewComputation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &oneHolder{release: make(chan struct{})}
		s := newOnceSearch(t, h, 16)
		var wg sync.WaitGroup
		wg.Go(func() { s.GetTrips(context.Background(), tlvJFK) })
		synctest.Wait()
		s.Purge() // the data changed: the computation under way may be of the old data
		wg.Go(func() { s.GetTrips(context.Background(), tlvJFK) })
		synctest.Wait()
		if n := h.asks.Load(); n != 2 {
			t.Errorf("%d holder calls; a search after a purge must not join a computation begun before it", n)
		}
		close(h.release)
		wg.Wait()
	})
}

// panicking is an alliance whose seller list panics (a bug, in the shared computation).
type panicking struct{ oneHolder }

func (*panicking) Sellers() []string { panic("a bug") }

func TestAPanicInTheSharedComputationIsAFaultNotACrash(t *testing.T) {
	metrics := newOnceSearch(t, &oneHolder{}, 0).metrics
	s := New(Config{Alliance: "star"}, &panicking{}, ledger.NewSeats("star"), metrics)
	if _, err := s.GetTrips(context.Background(), tlvJFK); err == nil || !strings.Contains(err.Error(), "a bug") {
		t.Errorf("a panic while computing: %v; want a fault naming it", err)
	}
}
