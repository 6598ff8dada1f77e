package gather

import (
	"context"

	"flightalliance/alliance/flight"
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
