package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func TestPercentileNearestRank(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = ms(i + 1)
	}
	for _, c := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", []time.Duration{ms(7)}, 99, ms(7)},
		{"p50 of 1..100", hundred, 50, ms(50)},
		{"p90 of 1..100", hundred, 90, ms(90)},
		{"p99 of 1..100", hundred, 99, ms(99)},
		{"p100 of 1..100", hundred, 100, ms(100)},
		{"p50 of 4", []time.Duration{ms(1), ms(2), ms(3), ms(4)}, 50, ms(2)},
		{"p90 of 4 rounds up", []time.Duration{ms(1), ms(2), ms(3), ms(4)}, 90, ms(4)},
		{"p0 is the minimum", []time.Duration{ms(1), ms(2)}, 0, ms(1)},
	} {
		if got := percentile(c.sorted, c.p); got != c.want {
			t.Errorf("%s: percentile(p%v) = %v, want %v", c.name, c.p, got, c.want)
		}
	}
}

func TestSummarizeCountsAndPercentiles(t *testing.T) {
	var rs []result
	for i := 1; i <= 97; i++ {
		rs = append(rs, result{Outcome: outcomeComplete, Latency: ms(i), At: ms(10 * i)})
	}
	// Answers arrive out of order: the last bad one due is counted first.
	rs = append(rs,
		result{Outcome: outcomeError, Latency: ms(5000), At: ms(2500), Detail: "error: timeout"},
		result{Outcome: outcomeIncomplete, Latency: ms(500), At: ms(2000), Detail: "incomplete: star missing [LY]"},
		result{Outcome: outcomeIncomplete, Latency: ms(600), At: ms(2100), Detail: "incomplete: star missing [LY]"},
	)
	s := summarize(rs)
	if s.Total != 100 || s.Complete != 97 || s.Incomplete != 2 || s.Errors != 1 {
		t.Fatalf("counts %+v, want 100 = 97 complete + 2 incomplete + 1 error", s)
	}
	if s.P50 != ms(50) || s.P90 != ms(90) || s.P99 != ms(600) || s.Max != ms(5000) {
		t.Fatalf("latency p50 %v p90 %v p99 %v max %v, want 50ms 90ms 600ms 5s", s.P50, s.P90, s.P99, s.Max)
	}
	if s.Details["incomplete: star missing [LY]"] != 2 || s.Details["error: timeout"] != 1 || len(s.Details) != 2 {
		t.Fatalf("details %v", s.Details)
	}
	if s.FirstBad != ms(2000) || s.LastBad != ms(2500) {
		t.Fatalf("not complete from %v to %v, want 2s to 2.5s", s.FirstBad, s.LastBad)
	}
	var b bytes.Buffer
	s.write(&b)
	for _, want := range []string{"complete 97", "incomplete 2", "errors 1", "p99 600ms", "max 5s", "2 × incomplete: star missing [LY]",
		"from t=2s to t=2.5s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestSummarizeNothing(t *testing.T) {
	if s := summarize(nil); s.Total != 0 || s.Max != 0 || s.P50 != 0 {
		t.Fatalf("summarize(nil) = %+v", s)
	}
}
