package hedge

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"
)

// Ask asks one target about some keys. covered names the keys its answer settles; a target that
// failed, or does not have a key, leaves it out, and the key goes to its next candidate. Ask runs
// in a goroutine of its own and must return soon after ctx ends.
type Ask[A any] func(ctx context.Context, target string, keys []string) (answer A, covered []string)

// Answer is one target's answer, as Gather.Run hands it to seen.
type Answer[A any] struct {
	Target  string        // the target asked
	Keys    []string      // the keys it was asked about, in the caller's order
	Value   A             // what Ask returned
	Covered []string      // the keys Ask said the answer covers
	Won     []string      // the covered keys no earlier answer had covered, in the order of Keys
	Took    time.Duration // from the call's start to its answer
	Hedge   bool          // the call was a hedge: asked on a tick while another call was pending
}

// Outcome is what a gather came to.
type Outcome struct {
	Missing []string // the keys no answer covered, sorted, never nil
	Hedged  int      // how many times a pending key was asked of a further candidate on a tick
	Calls   int      // calls made, hedges included
	// HedgeCalls are the calls made on a tick, HedgesWon those of them whose answer won a key
	// before the gather ended, HedgesRefused the calls a tick wanted that the budget refused
	// (each once, however many ticks it refused them at).
	HedgeCalls, HedgesWon, HedgesRefused int
}

// Gather collects answers for a set of keys from their candidates, asking the candidates of each
// key in order:
//   - it asks one candidate per key at a time, one call per target for all the keys it is asked
//     about at that moment;
//   - a key that an answer does not cover is asked of its next candidate at once;
//   - on every hedge tick, a key still pending gets its next candidate asked too (the one asked
//     before is paused or cut off), and the first answer that covers a key wins it;
//   - a key is missing only when no candidate is left and no call that could cover it is in
//     flight, or when ctx ends before it was covered.
//
// It knows nothing of the network or the clock: Ask does the calls, the caller's channel ticks.
// A Gather is used once.
type Gather[A any] struct {
	ask        Ask[A]
	candidates map[string][]string  // key → the targets to ask, in order
	keys       []string             // the keys, in the caller's order
	next       map[string]int       // key → index of its next candidate
	inflight   map[string]int       // key → calls in flight that cover it
	asked      map[string]time.Time // key → when its latest call started
	last       map[string]string    // key → the target of its latest call
	pending    map[string]bool      // keys no answer has covered yet
	refused    map[string]int       // key → 1 + the candidate whose hedge the budget refused (counted once)
	answers    chan Answer[A]
	seen       func(Answer[A])
	policy     *Policy                  // learns from the calls and allows the hedges; nil: every hedge, nothing learnt
	calls      sync.WaitGroup           // the calls' goroutines: Run waits for them
	class      string                   // the kind of calls, whose latencies the policy learns apart (Class)
	skip       func(target string) bool // candidates passed over when their turn comes (Skip)
	heard      func(answer A) bool      // whether a value Ask returned came from its target (Heard)
	out        Outcome
}

// New makes a gather of keys (distinct, in the caller's order), each asked of its candidates in
// order; a key without candidates is missing.
func New[A any](keys []string, candidates map[string][]string, ask Ask[A]) *Gather[A] {
	capacity := 0
	for _, k := range keys {
		capacity += len(candidates[k])
	}
	g := &Gather[A]{
		ask:        ask,
		candidates: candidates,
		keys:       keys,
		next:       map[string]int{},
		inflight:   map[string]int{},
		asked:      map[string]time.Time{},
		last:       map[string]string{},
		pending:    map[string]bool{},
		refused:    map[string]int{},
		answers:    make(chan Answer[A], capacity), // every call can answer without a reader
		out:        Outcome{Missing: []string{}},
	}
	for _, k := range keys {
		g.pending[k] = true
	}
	return g
}

// Run asks until every key is covered or missing, hedging at every tick of ticks (a nil channel
// never hedges). seen is called, in Run's goroutine, with every answer that came back before Run
// returns, the losers of a hedge included; it must not block. The calls still in flight when the
// gather is over are cancelled and their answers dropped; Run returns once they have returned.
func (g *Gather[A]) Run(ctx context.Context, ticks <-chan time.Time, seen func(Answer[A])) Outcome {
	ctx, cancel := context.WithCancel(ctx)
	defer g.calls.Wait() // …for the abandoned calls to return (Ask returns soon after ctx ends)
	defer cancel()       // abandons the calls that lost a hedge…
	g.seen = seen
	g.launch(ctx, g.keys, false)
	for len(g.pending) > 0 {
		select {
		case a := <-g.answers:
			g.answer(ctx, a)
		case <-ticks:
			g.hedge(ctx)
		case <-ctx.Done():
			g.finish()
		}
	}
	sort.Strings(g.out.Missing)
	return g.out
}

// launch asks each key's next candidate, grouped by target; a key without one left is missing
// once nothing in flight can still cover it. On a hedge (hedged), a target's call needs the
// budget's consent; its keys stay where they were when it is refused, for the next tick.
func (g *Gather[A]) launch(ctx context.Context, keys []string, hedged bool) {
	byTarget := map[string][]string{}
	var order []string // targets in the order their first key came, so calls start in key order
	for _, k := range keys {
		for g.skip != nil && g.next[k] < len(g.candidates[k]) && g.skip(g.candidates[k][g.next[k]]) {
			g.next[k]++
		}
		if g.next[k] < len(g.candidates[k]) {
			target := g.candidates[k][g.next[k]]
			if byTarget[target] == nil {
				order = append(order, target)
			}
			byTarget[target] = append(byTarget[target], k)
		} else if g.inflight[k] == 0 && g.pending[k] {
			delete(g.pending, k)
			g.out.Missing = append(g.out.Missing, k)
		}
	}
	for _, target := range order {
		group := byTarget[target]
		switch g.allow(group, hedged) {
		case hedgeRefused:
			if g.newRefusal(group) {
				g.out.HedgesRefused++
			}
			continue
		case hedgeNotYet:
			continue
		}
		now := time.Now()
		for _, k := range group {
			g.next[k]++
			g.inflight[k]++
			g.asked[k] = now
			g.last[k] = target
		}
		g.out.Calls++
		if hedged {
			g.out.HedgeCalls++
			g.out.Hedged += len(group)
		}
		g.calls.Go(func() {
			start := time.Now()
			value, covered := g.ask(ctx, target, group)
			took := time.Since(start)
			switch {
			case g.policy == nil:
			case ctx.Err() != nil: // abandoned (a hedge won): it would have taken at least this long
				g.policy.abandoned(target, g.class, took)
			case g.heard == nil || g.heard(value): // the target answered
				g.policy.answered(target, g.class, took, len(covered) > 0)
			}
			// Otherwise the call ended unanswered (its own deadline, a connection refused): that
			// says nothing of how fast the target answers, and must not make it look alive.
			g.answers <- Answer[A]{Target: target, Keys: group, Value: value, Covered: covered, Took: took, Hedge: hedged}
		})
	}
}

// newRefusal reports whether a refused hedge of keys is news, and remembers it: the same hedge
// refused again at later ticks is one call not made, not several.
func (g *Gather[A]) newRefusal(keys []string) bool {
	news := false
	for _, k := range keys {
		if g.refused[k] != g.next[k]+1 {
			g.refused[k], news = g.next[k]+1, true
		}
	}
	return news
}

// allow asks the policy for a call about keys: a hedge needs its consent, any other call adds to
// its budget.
func (g *Gather[A]) allow(keys []string, hedged bool) verdict {
	switch {
	case g.policy == nil:
		return hedgeAllowed
	case hedged:
		waitingOn := make([]string, 0, len(keys)) // the targets last asked about the keys
		var waited time.Duration                  // the longest any of the keys has waited
		for _, k := range keys {
			waitingOn = append(waitingOn, g.last[k])
			waited = max(waited, time.Since(g.asked[k]))
		}
		return g.policy.allowHedge(waitingOn, g.class, waited)
	default:
		g.policy.budget.call()
		return hedgeAllowed
	}
}

// firstTargets are the targets the first calls go to.
func (g *Gather[A]) firstTargets() []string {
	var targets []string
	for _, k := range g.keys {
		if c := g.candidates[k]; len(c) > 0 && !slices.Contains(targets, c[0]) {
			targets = append(targets, c[0])
		}
	}
	return targets
}

// answer takes one target's answer: the keys it covers are won (unless an earlier answer covered
// them), and those it does not cover go to their next candidate unless another call for them is
// still in flight.
func (g *Gather[A]) answer(ctx context.Context, a Answer[A]) {
	var retry []string
	for _, k := range a.Keys {
		g.inflight[k]--
		if !g.pending[k] {
			continue
		}
		if slices.Contains(a.Covered, k) {
			delete(g.pending, k)
			a.Won = append(a.Won, k)
		} else if g.inflight[k] == 0 {
			retry = append(retry, k)
		}
	}
	if a.Hedge && len(a.Won) > 0 {
		g.out.HedgesWon++
	}
	if g.seen != nil {
		g.seen(a)
	}
	g.launch(ctx, retry, false)
}

// hedge asks the next candidate of every key still pending that has one, as far as the budget
// allows.
func (g *Gather[A]) hedge(ctx context.Context) {
	var slow []string
	for _, k := range g.keys {
		if g.pending[k] && g.next[k] < len(g.candidates[k]) {
			slow = append(slow, k)
		}
	}
	if len(slow) > 0 {
		g.launch(ctx, slow, true)
	}
}

// finish gives up (ctx ended): every key still pending is missing.
func (g *Gather[A]) finish() {
	for _, k := range g.keys {
		if g.pending[k] {
			g.out.Missing = append(g.out.Missing, k)
		}
	}
	g.pending = nil
}
