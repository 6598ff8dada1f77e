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
type askFunc func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string)

// gathered is what a gather came to: the flights of every seller some holder answered for, all
// together and by seller, and the gather's outcome (the sellers none did, sorted, never nil; its
// calls and hedges).
type gathered struct {
	fromSrc, toDst []flight.Flight
	bySeller       map[string]holderFlights
	outcome        hedge.Outcome
}

// holderFlights is one holder's answer: the flights of the sellers it was asked about.
type holderFlights struct {
	src, dst []flight.Flight
}

// gatherFlights collects the flights of the sellers in want from their holders, candidates naming
// each seller's holders in order, as a hedge.Gather with a key per seller (see there: one call per
// machine, the next holder at once for a seller not covered, the next holder on a hedge every
// policy too, the first answer covering a seller wins).
func gatherFlights(ctx context.Context, want []string, candidates map[string][]string, policy *hedge.Policy, ask askFunc) gathered {
	g := hedge.New(want, candidates, func(ctx context.Context, machine string, sellers []string) (holderFlights, []string) {
		src, dst, covered := ask(ctx, machine, sellers)
		return holderFlights{src, dst}, covered
	})
	out := gathered{bySeller: make(map[string]holderFlights, len(want))}
	out.outcome = g.Hedge(ctx, policy, out.take)
	return out
}

// take keeps the flights of the sellers an answer won, and only theirs: a holder that answered
// late for a seller another holder had covered adds nothing.
func (g *gathered) take(a hedge.Answer[holderFlights]) {
	for _, s := range a.Won {
		mine := holderFlights{ofSeller(a.Value.src, s), ofSeller(a.Value.dst, s)}
		g.fromSrc = append(g.fromSrc, mine.src...)
		g.toDst = append(g.toDst, mine.dst...)
		if g.bySeller != nil {
			g.bySeller[s] = mine
		}
	}
}

// ofSeller is the flights of one seller: flights itself when they all are (a holder asked for
// one seller, the usual case: not copied), otherwise a copy of theirs.
func ofSeller(flights []flight.Flight, seller string) []flight.Flight {
	for i := range flights {
		if flights[i].Seller != seller {
			var out []flight.Flight
			for _, f := range flights {
				if f.Seller == seller {
					out = append(out, f)
				}
			}
			return out
		}
	}
	return flights
}

// gather collects the flights of every wanted seller: from the flight cache for the sides it
// keeps, and from the holders the alliance names, in order (see hedge.Gather), for the others — one
// gather per set of sides asked, at once; a seller no holder answered for is missing, and none of
// its flights are used.
func (s *Search) gather(ctx context.Context, q trip.Query, want []string) (fromSrc, toDst []flight.Flight, missing []string) {
	gen := s.flights.generation()
	kept := make(map[string]holderFlights) // the sides kept of the sellers asked for the others
	ask := make(map[Sides][]string)
	for _, sel := range want {
		src, dst, have := s.flights.sides(sel, q.Date, q.Src, q.Dst)
		if have == BothSides {
			fromSrc, toDst = append(fromSrc, src...), append(toDst, dst...)
			continue
		}
		lack := BothSides &^ have
		ask[lack] = append(ask[lack], sel)
		kept[sel] = holderFlights{src, dst}
	}
	s.metrics.flightLists(len(want)-len(kept), len(kept))
	if len(kept) == 0 {
		return fromSrc, toDst, []string{}
	}
	gathers := s.gatherSides(ctx, q, ask)
	if got, ok := gathers[BothSides]; ok && len(gathers) == 1 && len(fromSrc)+len(toDst) == 0 {
		// None kept: the gathered lists are the lists.
		s.keep(q, BothSides, got, gen)
		return got.fromSrc, got.toDst, got.outcome.Missing
	}
	missing = []string{}
	for _, sides := range []Sides{BothSides, FromSrc, ToDst} {
		got, ok := gathers[sides]
		if !ok {
			continue
		}
		s.keep(q, sides, got, gen)
		missing = append(missing, got.outcome.Missing...)
		fromSrc, toDst = append(fromSrc, got.fromSrc...), append(toDst, got.toDst...)
		for _, sel := range ask[sides] {
			if _, answered := got.bySeller[sel]; answered {
				fromSrc, toDst = append(fromSrc, kept[sel].src...), append(toDst, kept[sel].dst...)
			}
		}
	}
	slices.Sort(missing)
	return fromSrc, toDst, missing
}

// gatherSides runs one gather per set of sides in ask (the sellers to ask it for), at once.
func (s *Search) gatherSides(ctx context.Context, q trip.Query, ask map[Sides][]string) map[Sides]gathered {
	one := func(sides Sides, sellers []string) gathered {
		candidates := make(map[string][]string, len(sellers))
		for _, sel := range sellers {
			candidates[sel] = s.alliance.Candidates(sel)
		}
		ask1 := func(ctx context.Context, machine string, sellers []string) (src, dst []flight.Flight, covered []string) {
			return s.alliance.Ask(ctx, machine, q, sides, sellers)
		}
		return gatherFlights(ctx, sellers, candidates, s.cfg.Hedge, ask1)
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
