package hedge

import (
	"sync"
	"time"
)

// budget is a token bucket that bounds hedged calls to a share of all calls, as Finagle's retry
// budget and gRPC's retry throttling do: every call that is not a hedge deposits ratio tokens,
// time deposits floor tokens a second (so that a caller with little traffic can still hedge
// past a paused target), the bucket holds at most burst, and a hedge spends one token or is
// refused. A refusal delays, it does not lose: a key whose call fails or does not cover it still
// moves to its next candidate at once (that is not a hedge), and a call pending for the Policy's
// FreeAfter is hedged outside the budget, while the caller's deadline leaves time. Safe for
// concurrent use.
type budget struct {
	ratio, floor, burst float64

	mu     sync.Mutex
	tokens float64
	last   time.Time // when floor tokens were last added
}

func newBudget(ratio, floor, burst float64) *budget {
	return &budget{ratio: ratio, floor: floor, burst: burst, tokens: burst, last: time.Now()}
}

// call records a call that is not a hedge.
func (b *budget) call() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens = min(b.burst, b.tokens+b.ratio)
}

// hedge spends a token for a hedged call, or reports that the budget is spent.
func (b *budget) hedge() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	if b.tokens < 1-1e-9 { // 20 calls of 0.05 make a token, whatever the rounding
		return false
	}
	b.tokens--
	return true
}

// refill adds the floor's tokens for the time since the last refill; b.mu is held.
func (b *budget) refill() {
	now := time.Now()
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(b.burst, b.tokens+b.floor*elapsed.Seconds())
		b.last = now
	}
}
