package search

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"flightalliance/soap"
)

// slowWholeDelegate: the delegate "d" answers in 10ms, but takes 4s (longer than
// --delegate-timeout) when a maximum price is asked; the alternate "a" answers anything in 1ms.
type slowWholeDelegate struct{ uri string }

func (r slowWholeDelegate) GetTrips(ctx context.Context, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	took := time.Millisecond
	if strings.Contains(r.uri, "d.example") {
		took = 10 * time.Millisecond
		if req.MaxPrice != "" {
			took = 4 * time.Second
		}
	}
	select {
	case <-time.After(took):
		resp := starTrips
		return &resp, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// While the delegate keeps answering whole lists it is not silent, and twenty slow ones at once
// spend the hedge budget; the hedges it refuses must cost time, never the answer: the alternate is
// asked once a call has been pending half of --delegate-timeout.
func TestARefusedHedgeNeverCostsACompleteAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := New(Config{Logger: slog.New(slog.DiscardHandler), AnswerCache: -1,
			Dial: func(uri string) (Delegate, error) { return slowWholeDelegate{uri}, nil }})
		if err != nil {
			t.Fatal(err)
		}
		s.Registry().Register("star", "http://d.example/soap", "http://a.example/soap")
		stop := make(chan struct{})
		var bg sync.WaitGroup
		bg.Go(func() { // whole lists answered every 50ms: the delegate is alive, not silent
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
					s.searchBody(t, fmt.Sprintf("%s&offset=%d", query, i%500))
				}
			}
		})
		time.Sleep(time.Second)
		var wg sync.WaitGroup
		incomplete := make([]bool, 20)
		for i := range incomplete {
			wg.Go(func() {
				_, body := s.searchBody(t, fmt.Sprintf("%s&max_price=%d", query, 1000+i)) // whole lists, distinct, slow
				incomplete[i] = strings.Contains(body, `"complete":false`)
			})
		}
		wg.Wait()
		close(stop)
		bg.Wait()
		n := 0
		for _, b := range incomplete {
			if b {
				n++
			}
		}
		if n > 0 {
			t.Errorf("%d of 20 whole-list searches incomplete although the alternate answers in 1ms", n)
		}
	})
}
