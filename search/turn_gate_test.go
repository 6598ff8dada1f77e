package search

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestWorthWaiting(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	const maxWait = 100 * time.Millisecond
	// turns given back at the given times before now, each held for held.
	turns := func(held time.Duration, ago ...time.Duration) []turn {
		var out []turn
		for _, a := range ago {
			out = append(out, turn{ended: now.Add(-a), held: held})
		}
		return out
	}
	ms := time.Millisecond
	for _, c := range []struct {
		name     string
		position int
		turns    []turn
		want     bool
	}{
		{"nothing known yet: a burst queues", 5, nil, true},
		{"three turns known: still queues", 5, turns(5*ms, 1*ms, 2*ms, 3*ms), true},
		{"a fast queue: the 4th waits 20 ms", 4, turns(10*ms, 5*ms, 10*ms, 15*ms, 20*ms, 25*ms, 30*ms, 35*ms, 40*ms), true},
		{"a fast queue, far back: the 40th would wait 200 ms", 40, turns(10*ms, 5*ms, 10*ms, 15*ms, 20*ms, 25*ms, 30*ms, 35*ms, 40*ms), false},
		{"turns held long (round trips across regions): never", 1, turns(200*ms, 1*ms, 2*ms, 3*ms, 4*ms), false},
		{"turns held long, however long ago: never", 1, turns(400*ms, time.Hour, time.Hour, time.Hour, time.Hour), false},
		{"quick turns, all long ago: the pace is not known, queue", 1, turns(5*ms, time.Minute, time.Minute, time.Minute, time.Minute), true},
		{"a queue that stopped moving reads as slow", 1, turns(10*ms, 800*ms, 820*ms, 840*ms, 860*ms, 880*ms, 900*ms, 920*ms, 940*ms), false},
		{"one turn a second at most: slow", 1, turns(10*ms, 100*ms, 300*ms, 600*ms, 900*ms), false},
	} {
		if got := worthWaiting(c.position, c.turns, now, maxWait); got != c.want {
			t.Errorf("%s: worthWaiting = %v, want %v", c.name, got, c.want)
		}
	}
}

// gateLog records the turn gate's counts.
type gateLog struct {
	mu   sync.Mutex
	hows []string
}

func (l *gateLog) count(how string) {
	l.mu.Lock()
	l.hows = append(l.hows, how)
	l.mu.Unlock()
}

func (l *gateLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.hows)
}

func TestTurnGateGivesTurnsFirstComeFirstServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &gateLog{}
		g := newTurnGate(2, time.Second, time.Now, log.count)
		first, second := g.enter(t.Context()), g.enter(t.Context())
		var mu sync.Mutex
		var order []int
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Go(func() {
				release := g.enter(t.Context())
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				time.Sleep(10 * time.Millisecond)
				release()
			})
			synctest.Wait() // each in the queue before the next arrives
		}
		if len(order) != 0 {
			t.Fatalf("%v started while both turns were taken", order)
		}
		first()
		synctest.Wait() // the first waiting has started before the next turn is given back
		second()
		wg.Wait()
		if !slices.Equal(order, []int{0, 1, 2}) {
			t.Errorf("turns given in the order %v, want 0 1 2", order)
		}
		if got := log.all(); !slices.Equal(got, []string{"turn", "turn", "waited", "waited", "waited"}) {
			t.Errorf("counted %v", got)
		}
	})
}

func TestTurnGateWaitsAtMostItsMaxWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &gateLog{}
		g := newTurnGate(1, 100*time.Millisecond, time.Now, log.count)
		held := g.enter(t.Context())
		start := time.Now()
		beside := g.enter(t.Context())
		if waited := time.Since(start); waited != 100*time.Millisecond {
			t.Errorf("waited %s for a turn that never came, want the 100ms maximum", waited)
		}
		beside() // a no-op: it held no turn
		next := make(chan struct{})
		go func() {
			defer close(next)
			g.enter(t.Context())()
		}()
		synctest.Wait()
		held()
		<-next // the turn given back went to the next one waiting, not to the one that ran beside
		if got := log.all(); !slices.Equal(got, []string{"turn", "waited_out", "waited"}) {
			t.Errorf("counted %v", got)
		}
	})
}

func TestTurnGateLetsSearchesRunBesideTurnsHeldLong(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &gateLog{}
		g := newTurnGate(4, 100*time.Millisecond, time.Now, log.count)
		// Four searches at once, each 300 ms (round trips across regions), given back together:
		// a queue that moves at once, but whose turns are held long.
		enterAll := func() (releases []func()) {
			for range 4 {
				releases = append(releases, g.enter(t.Context()))
			}
			return releases
		}
		first := enterAll()
		time.Sleep(300 * time.Millisecond)
		for _, release := range first {
			release()
		}
		held := enterAll()
		start := time.Now()
		g.enter(t.Context())()
		if waited := time.Since(start); waited != 0 {
			t.Errorf("waited %s behind turns held 300 ms, want none", waited)
		}
		for _, release := range held {
			release()
		}
		if got := log.all(); !slices.Equal(got, slices.Concat(slices.Repeat([]string{"turn"}, 8), []string{"beside"})) {
			t.Errorf("counted %v", got)
		}
	})
}

func TestTurnGateLeavesTheQueueWhenTheSearchEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		log := &gateLog{}
		g := newTurnGate(1, time.Minute, time.Now, log.count)
		held := g.enter(t.Context())
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() {
			defer close(done)
			g.enter(ctx)()
		}()
		synctest.Wait()
		cancel()
		<-done
		held()
		if g.running != 0 || len(g.waiting) != 0 {
			t.Errorf("%d turns held, %d waiting after everyone left", g.running, len(g.waiting))
		}
	})
}

func TestANilTurnGateLetsEverySearchRun(t *testing.T) {
	var g *turnGate
	g.enter(context.Background())()
}
