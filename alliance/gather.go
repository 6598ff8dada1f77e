package alliance

import (
	"context"
	"slices"
	"sort"
	"time"

	"flightalliance/alliance/flight"
)

// askFunc asks one machine for the flights of sellers on both sides of a query. covered names
// the sellers it answered for; a machine that failed, or no longer has a seller, leaves it out.
type askFunc func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string)

// gathered is what a gather came to: the flights of every seller some holder answered for, the
// sellers none did (sorted, never nil), and how many sellers were hedged to a further holder.
type gathered struct {
	fromSrc, toDst []flight.Flight
	missing        []string
	hedged         int
}

// holderAnswer is one ask's result, for the sellers it was asked about.
type holderAnswer struct {
	sellers  []string
	src, dst []flight.Flight
	covered  []string
}

// gather collects the flights of a set of sellers from their holders, asking the candidates of
// each seller in order:
//   - it asks one candidate per seller at a time, one call per machine for all its sellers;
//   - a seller that an answer does not cover is asked of its next candidate at once;
//   - on every hedge tick, a seller still pending gets its next candidate asked too (the first
//     one is paused or cut off), and the first answer that covers a seller wins;
//   - a seller is missing only when no candidate is left and no call that could cover it is in
//     flight, or when ctx ends before it was covered.
//
// It knows nothing of etcd or the network: ask does the calls. A gather is used once.
type gather struct {
	ask        askFunc
	candidates map[string][]string // seller → the machines to ask, in order
	want       []string            // the sellers, in the caller's order
	next       map[string]int      // seller → index of its next candidate
	inflight   map[string]int      // seller → calls in flight that cover it
	pending    map[string]bool     // sellers no answer has covered yet
	answers    chan holderAnswer
	out        gathered
}

func newGather(want []string, candidates map[string][]string, ask askFunc) *gather {
	capacity := 0
	for _, s := range want {
		capacity += len(candidates[s])
	}
	g := &gather{
		ask:        ask,
		candidates: candidates,
		want:       want,
		next:       map[string]int{},
		inflight:   map[string]int{},
		pending:    map[string]bool{},
		answers:    make(chan holderAnswer, capacity), // every call can answer without blocking
		out:        gathered{missing: []string{}},
	}
	for _, s := range want {
		g.pending[s] = true
	}
	return g
}

// gatherFlights runs a gather that hedges every hedgeAfter.
func gatherFlights(ctx context.Context, want []string, candidates map[string][]string, hedgeAfter time.Duration, ask askFunc) gathered {
	hedge := time.NewTicker(hedgeAfter)
	defer hedge.Stop()
	return newGather(want, candidates, ask).run(ctx, hedge.C)
}

// run asks until every seller is covered or missing, hedging at every tick of hedge. The calls
// still in flight when it returns are cancelled.
func (g *gather) run(ctx context.Context, hedge <-chan time.Time) gathered {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // abandons the calls that lost a hedge
	g.launch(ctx, g.want)
	for len(g.pending) > 0 {
		select {
		case a := <-g.answers:
			g.answer(ctx, a)
		case <-hedge:
			g.hedge(ctx)
		case <-ctx.Done():
			g.finish()
		}
	}
	sort.Strings(g.out.missing)
	return g.out
}

// launch asks each seller's next candidate, grouped by machine; a seller without one left is
// missing once nothing in flight can still cover it.
func (g *gather) launch(ctx context.Context, sellers []string) {
	byMachine := map[string][]string{}
	for _, s := range sellers {
		if g.next[s] < len(g.candidates[s]) {
			machine := g.candidates[s][g.next[s]]
			g.next[s]++
			byMachine[machine] = append(byMachine[machine], s)
			g.inflight[s]++
		} else if g.inflight[s] == 0 && g.pending[s] {
			delete(g.pending, s)
			g.out.missing = append(g.out.missing, s)
		}
	}
	for machine, group := range byMachine {
		go func() {
			src, dst, covered := g.ask(ctx, machine, group)
			g.answers <- holderAnswer{group, src, dst, covered}
		}()
	}
}

// answer takes one holder's answer: the sellers it covers are done (unless an earlier answer
// covered them), and those it does not cover go to their next candidate unless another call for
// them is still in flight.
func (g *gather) answer(ctx context.Context, a holderAnswer) {
	var retry []string
	for _, s := range a.sellers {
		g.inflight[s]--
		if !g.pending[s] {
			continue
		}
		if slices.Contains(a.covered, s) {
			delete(g.pending, s)
			g.out.fromSrc = appendSeller(g.out.fromSrc, a.src, s)
			g.out.toDst = appendSeller(g.out.toDst, a.dst, s)
		} else if g.inflight[s] == 0 {
			retry = append(retry, s)
		}
	}
	g.launch(ctx, retry)
}

// hedge asks the next candidate of every seller still pending that has one.
func (g *gather) hedge(ctx context.Context) {
	var slow []string
	for _, s := range g.want {
		if g.pending[s] && g.next[s] < len(g.candidates[s]) {
			slow = append(slow, s)
		}
	}
	if len(slow) > 0 {
		g.out.hedged += len(slow)
		g.launch(ctx, slow)
	}
}

// finish gives up (ctx ended): every seller still pending is missing.
func (g *gather) finish() {
	for _, s := range g.want {
		if g.pending[s] {
			g.out.missing = append(g.out.missing, s)
		}
	}
	g.pending = nil
}

// appendSeller appends the flights of one seller.
func appendSeller(dst, flights []flight.Flight, seller string) []flight.Flight {
	for _, f := range flights {
		if f.Seller == seller {
			dst = append(dst, f)
		}
	}
	return dst
}
