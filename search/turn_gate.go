package search

import (
	"context"
	"sync"
	"time"
)

// turnGate runs searches first come, first served while that costs little: a few run at once
// (limit), and a search that finds them all taken waits for one only when the queue is moving
// fast enough that its turn should come within maxWait, and the searches are quick
// (worthWaiting). Otherwise — and whenever its wait reaches maxWait — it runs at once beside
// them.
//
// Why: when the search server and its delegates share a few cores, every search of a burst
// running at once shares them, and a large answer advances at a fraction of a core and
// finishes last by far (processor sharing: its work times the crowd). A short queue in front
// makes that its own work plus its wait. But a search also holds its turn while it waits on the
// network, and across regions a fixed number at once would cap a search server at that number
// per round trip: there turns are held long, so nobody waits. The gate never refuses a
// search (admission does that, at --max-searches) and never delays one by more than maxWait.
type turnGate struct {
	limit   int
	maxWait time.Duration
	now     func() time.Time
	count   func(how string) // "turn", "waited", "waited_out" or "beside"

	mu      sync.Mutex
	running int             // searches holding a turn
	waiting []chan struct{} // in order of arrival; closed when given a turn
	turns   []turn          // the last turns given back (a ring of turnsKept)
	next    int             // where the next goes in turns
}

// turn is a turn given back: when, and after how long.
type turn struct {
	ended time.Time
	held  time.Duration
}

// turnsKept is how many of the last turns given back the queue's pace is read from.
const turnsKept = 32

func newTurnGate(limit int, maxWait time.Duration, now func() time.Time, count func(how string)) *turnGate {
	return &turnGate{limit: limit, maxWait: maxWait, now: now, count: count}
}

// enter takes a turn, waiting for one when that is worth it; the returned release gives it back
// (a no-op for a search that ran beside the turns). A nil gate lets every search run at once.
func (g *turnGate) enter(ctx context.Context) (release func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	if g.running < g.limit && len(g.waiting) == 0 {
		g.running++
		g.mu.Unlock()
		g.count("turn")
		return g.leaver()
	}
	if !worthWaiting(len(g.waiting)+1, g.turns, g.now(), g.maxWait) {
		g.mu.Unlock()
		g.count("beside")
		return func() {}
	}
	me := make(chan struct{})
	g.waiting = append(g.waiting, me)
	g.mu.Unlock()

	t := time.NewTimer(g.maxWait)
	defer t.Stop()
	select {
	case <-me:
		g.count("waited")
		return g.leaver()
	case <-t.C:
	case <-ctx.Done():
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, w := range g.waiting {
		if w == me { // still waiting: leave the queue and run beside the turns
			g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
			g.count("waited_out")
			return func() {}
		}
	}
	g.count("waited")
	return g.leaver() // given a turn meanwhile
}

// leaver is the release of a turn taken now: it gives the turn to the first search waiting, if
// any, and notes how long it was held.
func (g *turnGate) leaver() func() {
	began := g.now()
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		now := g.now()
		t := turn{ended: now, held: now.Sub(began)}
		if len(g.turns) < turnsKept {
			g.turns = append(g.turns, t)
		} else {
			g.turns[g.next] = t
			g.next = (g.next + 1) % turnsKept
		}
		if len(g.waiting) > 0 {
			close(g.waiting[0])
			g.waiting = g.waiting[1:]
			return
		}
		g.running--
	}
}

// worthWaiting reports whether the position-th search in the queue should wait for its turn,
// judged by the last turns given back (turns, in any order):
//   - held longer than maxWait on average: the searches are waiting on something slow — round
//     trips across regions, a silent delegate — not on the cores, and waiting for them would
//     only add to every search's time (read over all of turns, however old: a burst after a
//     quiet spell is judged by the searches before it);
//   - fewer than four given back over the last paceWindow: the queue's pace is not known, and
//     a burst after a quiet spell is queued (each search waiting maxWait at most) until it is;
//   - otherwise, when its turn should come within maxWait at the pace they were given back over
//     paceWindow (a queue that stopped moving reads as slower and slower).
func worthWaiting(position int, turns []turn, now time.Time, maxWait time.Duration) bool {
	var held time.Duration
	for _, t := range turns {
		held += t.held
	}
	if len(turns) >= 4 && held/time.Duration(len(turns)) > maxWait {
		return false
	}
	n, oldest := 0, now
	for _, t := range turns {
		if now.Sub(t.ended) <= paceWindow {
			n++
			if t.ended.Before(oldest) {
				oldest = t.ended
			}
		}
	}
	if n < 4 {
		return true
	}
	return time.Duration(float64(now.Sub(oldest))*float64(position)/float64(n)) <= maxWait
}

// paceWindow is how far back the turns given back tell the queue's pace.
const paceWindow = time.Second
