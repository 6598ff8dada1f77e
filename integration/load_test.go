package integration

import (
	"context"
	"sort"
	"sync"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
)

// readyQueries picks n busy queries of the alliance's data, computes their reference answers,
// and waits until the search server answers them complete and equal to the reference.
func (a *testAlliance) readyQueries(base string, n int) (queries []query, want map[string][]string) {
	a.t.Helper()
	queries = busyQueries(a.activeData(), n)
	want = map[string][]string{}
	for _, q := range queries {
		want[q.String()] = referenceAcross([]map[string][]flight.Flight{a.activeData()}, q, 30*time.Minute)
	}
	framework.Eventually(a.t, 30*time.Second, "answers through the search server", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})
	return queries, want
}

// steadyLoad sends one search every interval through the search server, round robin over the
// queries, and classifies each answer against the reference.
type steadyLoad struct {
	mu      sync.Mutex
	answers []timedAnswer
	stop    context.CancelFunc
	done    sync.WaitGroup
}

type timedAnswer struct {
	chaosAnswer
	took time.Duration
}

func startSteadyLoad(base string, queries []query, want map[string][]string, interval time.Duration) *steadyLoad {
	ctx, stop := context.WithCancel(context.Background())
	l := &steadyLoad{stop: stop}
	l.done.Add(1)
	go func() {
		defer l.done.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			q := queries[i%len(queries)]
			l.done.Go(func() {
				start := time.Now()
				ans := classify(base, q, want[q.String()])
				l.mu.Lock()
				l.answers = append(l.answers, timedAnswer{ans, time.Since(start)})
				l.mu.Unlock()
			})
		}
	}()
	return l
}

// since returns the answers to searches sent at or after t.
func (l *steadyLoad) since(t time.Time) []timedAnswer {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []timedAnswer
	for _, a := range l.answers {
		if !a.at.Before(t) {
			out = append(out, a)
		}
	}
	return out
}

// finish stops sending and waits for every search in flight.
func (l *steadyLoad) finish() []timedAnswer {
	l.stop()
	l.done.Wait()
	return l.since(time.Time{})
}

// summarize counts outcomes and gives the latency quantiles of answers.
func summarize(as []timedAnswer) (counts map[chaosOutcome]int, p50, p99 time.Duration, bad []string) {
	counts = map[chaosOutcome]int{}
	var lat []time.Duration
	for _, a := range as {
		counts[a.outcome]++
		lat = append(lat, a.took)
		if a.outcome != answerComplete && len(bad) < 5 {
			bad = append(bad, a.detail)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		p50, p99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return counts, p50, p99, bad
}
