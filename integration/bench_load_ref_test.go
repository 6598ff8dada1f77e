package integration

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// refSpread is the reference's own p99 ÷ p50 over the queries, one at a time on one goroutine:
// how unequal the work of the answers is, before any queueing (the busiest pairs have ten
// times the median's trips).
func refSpread(inputs []refQuery) float64 {
	lat := make([]time.Duration, len(inputs))
	var buf []byte
	for i, in := range inputs {
		t0 := time.Now()
		buf, _ = in.answer(buf[:0], false)
		lat[i] = time.Since(t0)
	}
	slices.Sort(lat)
	return float64(lat[min(len(lat)-1, len(lat)*99/100)]) / float64(max(lat[len(lat)/2], 1))
}

// refThroughput is the reference's answers/s: workers goroutines computing each input's answer
// rounds times, after a round not timed. The first round in the process is the slowest (its
// buffers grow, its heap finds its size: 300–590 answers/s on this machine, against 680–720 for
// the rounds after it), and the reference is the limit, not its warm-up.
func refThroughput(inputs []refQuery, workers, rounds int) float64 {
	refRun(inputs, workers, len(inputs))
	return refRun(inputs, workers, len(inputs)*rounds)
}

// refRun computes n answers, the inputs' in turn, on workers goroutines, and returns answers/s.
func refRun(inputs []refQuery, workers, n int) float64 {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Go(func() {
			var buf []byte
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					return
				}
				buf, _ = inputs[k%len(inputs)].answer(buf[:0], false)
			}
		})
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}
