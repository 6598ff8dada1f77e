package hedge

import (
	"math"
	"slices"
	"time"
)

// window is a target's most recent call latencies, a ring of fixed size: the delay after which
// the target is hedged follows what it does now (a machine busy with a transfer, a delegate
// across an ocean), not what it did an hour ago.
type window struct {
	samples []time.Duration // at most windowSize, oldest overwritten first
	next    int             // where the next sample goes once the ring is full
}

const (
	windowSize = 128 // samples kept per target
	minSamples = 16  // fewer than this: the target's latency is not known yet
)

func (w *window) add(d time.Duration) {
	if len(w.samples) < windowSize {
		w.samples = append(w.samples, d)
		return
	}
	w.samples[w.next] = d
	w.next = (w.next + 1) % windowSize
}

// quantile is the q-quantile (0 < q ≤ 1) of the samples by the nearest-rank method, and false
// when there are too few samples to say.
func (w *window) quantile(q float64) (time.Duration, bool) {
	n := len(w.samples)
	if n < minSamples {
		return 0, false
	}
	sorted := slices.Clone(w.samples)
	slices.Sort(sorted)
	rank := int(math.Ceil(q*float64(n))) - 1 // ⌈q·n⌉ is 1-based
	return sorted[min(max(rank, 0), n-1)], true
}
