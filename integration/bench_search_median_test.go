package integration

import (
	"slices"
	"time"
)

// median is the middle of ds once sorted (the upper one of an even count); ds is not changed.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianF(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
