package hedge

import (
	"context"
	"time"
)

// Policy is when a gather asks a further candidate of a key that is still pending. It is a struct,
// not a bare duration, because it is the one place hedging is tuned for the whole module: a hedge
// budget (at most so many hedged calls per call) and delays derived from the latencies seen are
// to come here, and every caller that hedges gets them.
type Policy struct {
	// Delay is how long a pending key waits before its next candidate is asked too, and again
	// after every further Delay. Zero or negative never hedges: a key moves on only when an
	// answer does not cover it.
	Delay time.Duration
}

// Hedge runs g with a ticker of p.Delay, stopped when Run returns; seen and the outcome are as
// for Run. (It is a method of the gather rather than of the Policy because Go methods cannot
// take type parameters.)
func (g *Gather[A]) Hedge(ctx context.Context, p Policy, seen func(Answer[A])) Outcome {
	if p.Delay <= 0 {
		return g.Run(ctx, nil, seen)
	}
	ticker := time.NewTicker(p.Delay)
	defer ticker.Stop()
	return g.Run(ctx, ticker.C, seen)
}
