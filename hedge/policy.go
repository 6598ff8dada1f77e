package hedge

import (
	"context"
	"sync"
	"time"
)

// Settings tune a Policy. Only Max is required; the others have defaults.
type Settings struct {
	// Max is the longest a call waits before its key's next candidate is asked too, and again
	// after every further delay: what a paused or cut-off target costs at most. It is also the
	// delay for a target whose latency is not known yet. Zero or negative never hedges: a key
	// moves on only when an answer does not cover it.
	Max time.Duration
	// Min is the shortest delay, however fast a target has been (default Max/10).
	Min time.Duration
	// Quantile of a target's recent latencies after which it is hedged (default 0.95: about one
	// call in twenty is hedged when the targets are as fast as they were).
	Quantile float64
	// Ratio is the hedges allowed per call that is not a hedge (default 0.03), Floor the hedges
	// allowed a second whatever the traffic (default 1), Burst the most saved up (default 5). A
	// silent target is hedged away from without any of them. With the burst and the floor, 3 %
	// keeps a short rush of some hundred calls (a cold pass: 350 holder calls in 0.3 s) within
	// 5 % of its calls; 5 % let it reach 7 %.
	Ratio, Floor, Burst float64
	// FreeAfter is how long a call may be pending before a hedge away from it is made whatever
	// the budget (default 3 × Max): the caller's deadline must leave the next candidate time to
	// answer, or a refused hedge would cost a complete answer. Set it to a fraction of the
	// deadline the calls share (the search server: half of --delegate-timeout).
	FreeAfter time.Duration
	// SilentOnly hedges only the two free cases — a silent target, a call pending FreeAfter —
	// and never a target that is merely slower than its quantile: for a caller whose next
	// candidates cost more than the target they would relieve and lean on what it leans on (the
	// search server: an alternate machine answers from cold caches, gathering from the very
	// holders the delegate asks), a hedge of a busy target only adds to the load that makes it
	// slow. Ticks then come every Max.
	SilentOnly bool
}

// Policy is when a gather asks a further candidate of a key that is still pending, and whether it
// may. One Policy serves every gather of a caller (a machine's searches, a search server's calls
// to delegates): it learns each target's latency from the answers the gathers see, hedges a call
// once it has taken longer than its target's Quantile (clamped to [Min, Max]) — "The Tail at
// Scale" (Dean & Barroso): hedging at the 95th percentile cut the 99.9th from 1,800 to 74 ms for
// 2 % more requests — and keeps the hedges within a budget so that they cannot amplify a load that
// already makes every target slow.
//
// The budget spares two cases. A call pending for FreeAfter is hedged whatever the budget: the
// next candidate must still have time before the caller's deadline (a refused hedge must never
// cost a complete answer, only time). And a call whose target has answered nothing for longer than
// Max and than twice its 95th-percentile latency — paused, cut off, dead — is hedged whatever the
// budget, since moving away from it adds no load to it, and refusing would leave the key waiting
// for the call's timeout. A target that is merely slow, even one queueing calls for seconds
// under a load it cannot serve, still answers within twice its recent tail, and stays within
// the budget. Safe for concurrent use.
type Policy struct {
	s      Settings
	budget *budget

	mu         sync.Mutex
	latency    map[string]*window   // target and class → recent latencies (calls that covered a key)
	lastAnswer map[string]time.Time // target and class → when it last answered such a call
	lastAny    map[string]time.Time // target → when it last answered any call
}

// NewPolicy returns a Policy with s, its defaults filled in.
func NewPolicy(s Settings) *Policy {
	if s.Min <= 0 || s.Min > s.Max {
		s.Min = s.Max / 10
	}
	if s.Quantile <= 0 || s.Quantile > 1 {
		s.Quantile = 0.95
	}
	if s.Ratio <= 0 {
		s.Ratio = 0.03
	}
	if s.Floor <= 0 {
		s.Floor = 1
	}
	if s.Burst < 1 {
		s.Burst = 5
	}
	if s.FreeAfter <= 0 {
		s.FreeAfter = 3 * s.Max
	}
	return &Policy{s: s, budget: newBudget(s.Ratio, s.Floor, s.Burst),
		latency: map[string]*window{}, lastAnswer: map[string]time.Time{}, lastAny: map[string]time.Time{}}
}

// Delay is how long a call of class to target may take before it is hedged: the quantile of the
// latencies of such calls, within [Min, Max]; Max while too few have been seen.
func (p *Policy) Delay(target, class string) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.latency[target+"\x00"+class]
	if w == nil {
		return p.s.Max
	}
	q, ok := w.quantile(p.s.Quantile)
	if !ok {
		return p.s.Max
	}
	return min(max(q, p.s.Min), p.s.Max)
}

// answered records that target answered a call after took; covered says whether the answer
// covered a key (only those are latencies of the work asked: a refusal is quick).
func (p *Policy) answered(target, class string, took time.Duration, covered bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastAnswer[target+"\x00"+class] = time.Now()
	p.lastAny[target] = time.Now()
	if !covered {
		return
	}
	p.sample(target, class, took)
}

// abandoned records a call to target that was given up after took, unanswered: its latency is at
// least that. Counted as a sample — dropping it would leave the slow calls, the very ones hedges
// win against, out of the window, and the learnt quantile would lean ever lower — but not as an
// answer (the target did not answer: it may be silent).
func (p *Policy) abandoned(target, class string, took time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sample(target, class, took)
}

// sample adds a latency of target's calls of class to its window; p.mu is held.
func (p *Policy) sample(target, class string, took time.Duration) {
	key := target + "\x00" + class
	w := p.latency[key]
	if w == nil {
		w = &window{}
		p.latency[key] = w
	}
	w.add(took)
}

// tickSlack: the ticks count from just before the first calls are made, so a call pending since
// the start has waited a little less than the tick's time; a tick due at FreeAfter must still
// find it overdue, not leave it a whole tick more.
const tickSlack = time.Millisecond

// verdict is a Policy's answer to a hedge.
type verdict int

const (
	hedgeAllowed verdict = iota
	hedgeRefused         // the budget is spent
	hedgeNotYet          // SilentOnly: the target is busy, not silent, and the call not overdue
)

// allowHedge decides a hedge away from calls of class pending on waitingOn for waited: free
// once they have waited FreeAfter or when every target is silent, else a token of the budget
// (none with SilentOnly).
func (p *Policy) allowHedge(waitingOn []string, class string, waited time.Duration) verdict {
	switch {
	case waited+tickSlack >= p.s.FreeAfter || p.silent(waitingOn, class):
		return hedgeAllowed
	case p.s.SilentOnly:
		return hedgeNotYet
	case p.budget.hedge():
		return hedgeAllowed
	}
	return hedgeRefused
}

// silent reports whether every one of targets has answered nothing for longer than Max and
// than twice the latency quantile of its calls of class (never answered counts as silent).
// "Nothing" is nothing of class — or, with SilentOnly, nothing at all: a target answering pages
// is alive, however long its first whole list takes.
func (p *Policy) silent(targets []string, class string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	for _, t := range targets {
		quiet := p.s.Max
		if w := p.latency[t+"\x00"+class]; w != nil {
			if q, ok := w.quantile(p.s.Quantile); ok {
				quiet = max(quiet, 2*q)
			}
		}
		last := p.lastAnswer[t+"\x00"+class]
		if p.s.SilentOnly {
			last = p.lastAny[t]
		}
		if now.Sub(last) <= quiet {
			return false
		}
	}
	return true
}

// Hedge runs g under p: a tick when the slowest of the first targets asked has taken its Delay,
// and again after every further such delay; every hedge needs p's consent, and every answer
// teaches p about its target. A nil p, or one with Max ≤ 0, never hedges. seen and the outcome
// are as for Run. (It is a method of the gather rather than of the Policy because Go methods
// cannot take type parameters.)
func (g *Gather[A]) Hedge(ctx context.Context, p *Policy, seen func(Answer[A])) Outcome {
	if p == nil || p.s.Max <= 0 {
		return g.Run(ctx, nil, seen)
	}
	g.policy = p
	delay := p.s.Min
	for _, target := range g.firstTargets() {
		delay = max(delay, p.Delay(target, g.class))
	}
	if p.s.SilentOnly {
		delay = p.s.Max // as soon as a target can be silent
	}
	ticker := time.NewTicker(delay)
	defer ticker.Stop()
	return g.Run(ctx, ticker.C, seen)
}
