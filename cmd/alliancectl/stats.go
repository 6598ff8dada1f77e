package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// outcome classifies one search.
type outcome int

const (
	outcomeComplete   outcome = iota // 200 and "complete": true
	outcomeIncomplete                // 200 and "complete": false
	outcomeError                     // no 200 answer in time
)

// result is one search of a load run. Latency runs from when the search was due, not from
// when it was sent, so a load generator that falls behind shows as latency.
type result struct {
	Outcome outcome
	Latency time.Duration
	At      time.Duration // when it was due, from the start of the run
	Detail  string        // what was missing, or the error
}

// summary is what a load run reports.
type summary struct {
	Total, Complete, Incomplete, Errors int
	P50, P90, P99, Max                  time.Duration
	Details                             map[string]int // detail → count, for incomplete answers and errors
	FirstBad, LastBad                   time.Duration  // due times of the first and last search not complete
}

// summarize counts outcomes and takes latency percentiles (nearest rank) over every search.
func summarize(rs []result) summary {
	s := summary{Total: len(rs), Details: map[string]int{}}
	lat := make([]time.Duration, 0, len(rs))
	for _, r := range rs {
		switch r.Outcome {
		case outcomeComplete:
			s.Complete++
		case outcomeIncomplete:
			s.Incomplete++
		default:
			s.Errors++
		}
		if r.Outcome != outcomeComplete {
			if r.Detail != "" {
				s.Details[r.Detail]++
			}
			if s.Incomplete+s.Errors == 1 || r.At < s.FirstBad { // the first bad one counted so far
				s.FirstBad = r.At
			}
			s.LastBad = max(s.LastBad, r.At)
		}
		lat = append(lat, r.Latency)
	}
	slices.Sort(lat)
	s.P50, s.P90, s.P99 = percentile(lat, 50), percentile(lat, 90), percentile(lat, 99)
	if len(lat) > 0 {
		s.Max = lat[len(lat)-1]
	}
	return s
}

// percentile is the nearest-rank p-th percentile of sorted: the smallest value with at least
// p% of the values at or below it; 0 for no values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p / 100 * float64(len(sorted)))
	if float64(rank) < p/100*float64(len(sorted)) {
		rank++ // ceil
	}
	return sorted[max(rank, 1)-1]
}

func (s summary) write(out io.Writer) {
	fmt.Fprintf(out, "  complete %d   incomplete %d   errors %d   (of %d searches)\n", s.Complete, s.Incomplete, s.Errors, s.Total)
	fmt.Fprintf(out, "  latency p50 %v   p90 %v   p99 %v   max %v   (all searches, from when each was due)\n",
		round(s.P50), round(s.P90), round(s.P99), round(s.Max))
	if s.Incomplete+s.Errors > 0 {
		fmt.Fprintf(out, "  not complete: searches due from t=%v to t=%v\n", s.FirstBad.Round(time.Millisecond), s.LastBad.Round(time.Millisecond))
	}
	for _, d := range sortedKeys(s.Details) {
		fmt.Fprintf(out, "  %5d × %s\n", s.Details[d], d)
	}
}

func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Microsecond)
}
