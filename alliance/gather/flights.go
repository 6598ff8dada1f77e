package gather

import (
	"context"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/hedge"
)

// askFunc asks one machine for the flights of sellers on both sides of a query. covered names
// the sellers it answered for; a machine that failed, or no longer has a seller, leaves it out.
type askFunc func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string, heard bool)

// gathered is what a gather came to: the flights of every seller some holder answered for, by
// seller, and the gather's outcome (the sellers none did, sorted, never nil; its calls and
// hedges).
type gathered struct {
	bySeller map[string]holderFlights
	outcome  hedge.Outcome
	won      func(seller string, f holderFlights) // told of every seller as its answer wins (nil: none)
}

// holderFlights is one holder's answer: the flights of the sellers it was asked about.
type holderFlights struct {
	src, dst []flight.Flight
}

// holderAnswer is what one call to a holder came to: its flights, and whether it answered at all
// (Alliance.Ask's heard).
type holderAnswer struct {
	holderFlights
	heard bool
}

// gatherFlights collects the flights of the sellers in want from their holders, candidates naming
// each seller's holders in order, as a hedge.Gather with a key per seller (see there: one call per
// machine, the next holder at once for a seller not covered, the next holder on a hedge every
// policy too, the first answer covering a seller wins). won, unless nil, is told of each seller's
// flights as soon as they win, while the gather goes on for the others.
func gatherFlights(ctx context.Context, want []string, candidates map[string][]string, policy *hedge.Policy, ask askFunc, won func(string, holderFlights)) gathered {
	g := hedge.New(want, candidates, func(ctx context.Context, machine string, sellers []string) (holderAnswer, []string) {
		src, dst, covered, heard := ask(ctx, machine, sellers)
		return holderAnswer{holderFlights{src, dst}, heard}, covered
	}).Heard(func(a holderAnswer) bool { return a.heard })
	out := gathered{bySeller: make(map[string]holderFlights, len(want)), won: won}
	out.outcome = g.Hedge(ctx, policy, out.take)
	return out
}

// take keeps the flights of the sellers an answer won, and only theirs: a holder that answered
// late for a seller another holder had covered adds nothing.
func (g *gathered) take(a hedge.Answer[holderAnswer]) {
	for _, s := range a.Won {
		mine := holderFlights{ofSeller(a.Value.src, s), ofSeller(a.Value.dst, s)}
		g.bySeller[s] = mine
		if g.won != nil {
			g.won(s, mine)
		}
	}
}

// ofSeller is the flights of one seller: a part of flights, not copied, when that seller's are
// all together (holders answer seller by seller; one asked for one seller answers only its),
// with no room beyond, so that nobody appends over the next seller's; otherwise a copy of
// theirs.
func ofSeller(flights []flight.Flight, seller string) []flight.Flight {
	first := slices.IndexFunc(flights, func(f flight.Flight) bool { return f.Seller == seller })
	if first < 0 {
		return nil
	}
	end := first + 1
	for end < len(flights) && flights[end].Seller == seller {
		end++
	}
	if !slices.ContainsFunc(flights[end:], func(f flight.Flight) bool { return f.Seller == seller }) {
		return flights[first:end:end]
	}
	var out []flight.Flight
	for _, f := range flights {
		if f.Seller == seller {
			out = append(out, f)
		}
	}
	return out
}

// gather collects the flights of every wanted seller: the sides the flight cache keeps, the
// sides another search is asking the holders for now (waited for, inflight.go), and the others
// from the holders the alliance names, in order (see hedge.Gather) — one gather per set of sides
// asked, at once; a side waited for that came unanswered is asked then. A seller some side of
// which no holder answered for is missing, and none of its flights are used.
func (s *Search) gather(ctx context.Context, q trip.Query, want []string) (fromSrc, toDst []flight.Flight, missing []string) {
	gen := s.flights.generation()
	lists := make(map[string]*sellerLists, len(want))
	ask := make(map[Sides][]string)
	defer func() { // settles what a panic left claimed; settling again changes nothing
		for _, l := range lists {
			l.settle(s.flights, holderFlights{}, false, gen)
		}
	}()
	kept := 0
	for _, sel := range want {
		l := s.flights.claim(sel, q.Date, q.Src, q.Dst)
		lists[sel] = &l
		if l.have == BothSides {
			kept++
		} else if c := l.claimed(); c != 0 {
			ask[c] = append(ask[c], sel)
		}
	}
	s.metrics.flightLists(kept, len(want)-kept)
	if kept < len(want) {
		s.complete(ctx, q, want, lists, ask, gen)
	}
	return joinLists(want, lists)
}

// complete brings the lists a search lacks: it asks the holders for those it claimed (ask: the
// sellers to ask, by the sides to ask them for), then waits for those other searches claimed.
func (s *Search) complete(ctx context.Context, q trip.Query, want []string, lists map[string]*sellerLists, ask map[Sides][]string, gen uint64) {
	// A seller's claims are settled as soon as its answer wins: a search waiting for its lists
	// does not wait for the other sellers' holders too.
	gathers := s.gatherSides(ctx, q, ask, func(sel string, f holderFlights) { lists[sel].settle(s.flights, f, true, gen) })
	for sides, got := range gathers {
		s.count(got.outcome)
		for _, sel := range ask[sides] {
			f, answered := got.bySeller[sel]
			lists[sel].settle(s.flights, f, answered, gen)
			if answered {
				lists[sel].add(sides, f)
			}
		}
	}
	s.awaitOthers(ctx, q, want, lists, gen)
}

// joinLists puts the lists of the sellers in want with both sides together, in want's order,
// each side copied once into a list of exactly its size (the join reads them many times; a list
// grown by appending holder after holder would be copied again at every doubling); missing is
// the others, sorted, never nil.
func joinLists(want []string, lists map[string]*sellerLists) (fromSrc, toDst []flight.Flight, missing []string) {
	nSrc, nDst := 0, 0
	missing = []string{}
	for _, sel := range want {
		if l := lists[sel]; l.have == BothSides {
			nSrc, nDst = nSrc+len(l.src), nDst+len(l.dst)
		} else {
			missing = append(missing, sel)
		}
	}
	fromSrc, toDst = make([]flight.Flight, 0, nSrc), make([]flight.Flight, 0, nDst)
	for _, sel := range want {
		if l := lists[sel]; l.have == BothSides {
			fromSrc, toDst = append(fromSrc, l.src...), append(toDst, l.dst...)
		}
	}
	slices.Sort(missing)
	return fromSrc, toDst, missing
}

// awaitOthers waits for the lists other searches were asking for, and asks for those that came
// unanswered itself (of the sellers whose other sides this search has).
func (s *Search) awaitOthers(ctx context.Context, q trip.Query, want []string, lists map[string]*sellerLists, gen uint64) {
	retry := make(map[Sides][]string)
	for _, sel := range want {
		l := lists[sel]
		if l == nil {
			continue
		}
		var failed Sides
		for _, w := range []struct {
			sides Sides
			wait  *pendingList
			list  *[]flight.Flight
		}{{FromSrc, l.waitSrc, &l.src}, {ToDst, l.waitDst, &l.dst}} {
			if w.wait == nil {
				continue
			}
			if list, ok := w.wait.wait(ctx); ok {
				*w.list, l.have = list, l.have|w.sides
			} else {
				failed |= w.sides
			}
		}
		if failed != 0 && l.have|failed == BothSides && ctx.Err() == nil {
			retry[failed] = append(retry[failed], sel)
		}
	}
	if len(retry) == 0 {
		return
	}
	for sides, got := range s.gatherSides(ctx, q, retry, nil) {
		s.keep(q, sides, got, gen)
		for _, sel := range retry[sides] {
			if f, ok := got.bySeller[sel]; ok {
				lists[sel].add(sides, f)
			}
		}
	}
}

// gatherSides runs one gather per set of sides in ask (the sellers to ask it for), at once; won,
// unless nil, is told of each seller's flights as soon as they win (from any of the gathers).
func (s *Search) gatherSides(ctx context.Context, q trip.Query, ask map[Sides][]string, won func(string, holderFlights)) map[Sides]gathered {
	one := func(sides Sides, sellers []string) gathered {
		candidates := make(map[string][]string, len(sellers))
		alike := make(map[string]int, len(sellers))
		for _, sel := range sellers {
			candidates[sel], alike[sel] = s.alliance.Candidates(sel)
		}
		candidates = fewestCalls(sellers, candidates, alike, s.alliance.Zone, cacheKey(q))
		ask1 := func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string, heard bool) {
			return s.alliance.Ask(ctx, machine, q, sides, sellers)
		}
		return gatherFlights(ctx, sellers, candidates, s.cfg.Hedge, ask1, won)
	}
	out := make(map[Sides]gathered, len(ask))
	if len(ask) == 1 { // the usual case: no goroutine
		for sides, sellers := range ask {
			out[sides] = one(sides, sellers)
		}
		return out
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for sides, sellers := range ask {
		wg.Go(func() {
			got := one(sides, sellers)
			mu.Lock()
			defer mu.Unlock()
			out[sides] = got
		})
	}
	wg.Wait()
	return out
}

// keep counts a gather's calls and keeps the sides it brought of every seller it covered.
func (s *Search) keep(q trip.Query, sides Sides, got gathered, gen uint64) {
	s.count(got.outcome)
	for sel, f := range got.bySeller {
		if sides&FromSrc != 0 {
			s.flights.add(sel, q.Date, true, q.Src, f.src, gen)
		}
		if sides&ToDst != 0 {
			s.flights.add(sel, q.Date, false, q.Dst, f.dst, gen)
		}
	}
}

// count adds a gather's calls and hedges to the metrics.
func (s *Search) count(o hedge.Outcome) {
	for _, c := range []struct {
		counter prometheus.Counter
		n       int
	}{{s.metrics.Hedges, o.Hedged}, {s.metrics.HolderCalls, o.Calls}, {s.metrics.HedgesSent, o.HedgeCalls},
		{s.metrics.HedgesWon, o.HedgesWon}, {s.metrics.HedgesRefused, o.HedgesRefused}} {
		if c.counter != nil && c.n > 0 {
			c.counter.Add(float64(c.n))
		}
	}
}
