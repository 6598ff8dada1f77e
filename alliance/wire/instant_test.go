package wire

import (
	"sync"
	"testing"
	"time"
)

// TestInstantTextIsFormat: instants written through the table read as time.Format writes them —
// the same instant again, another instant in the same slot (a week later, a second later),
// other time zones, fractions of a second (RFC 3339 without fractions drops them), instants
// before 1970 — from several goroutines at once.
func TestInstantTextIsFormat(t *testing.T) {
	base := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	week := 7 * 24 * time.Hour
	var cases []time.Time
	for _, d := range []time.Duration{0, time.Second, 59 * time.Second, time.Minute, week, week + time.Second, -week,
		500 * time.Millisecond, 999999999, 3*time.Hour + 7*time.Minute} {
		cases = append(cases, base.Add(d), base.Add(d).In(time.FixedZone("IST", 2*3600)))
	}
	cases = append(cases, time.Date(1969, 12, 31, 23, 59, 30, 0, time.UTC), time.Date(1969, 12, 31, 23, 59, 31, 0, time.UTC), time.Unix(0, 0))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				for _, c := range cases {
					if got, want := instantText(c), c.UTC().Format(time.RFC3339); got != want {
						t.Errorf("instantText(%v) = %s, want %s", c, got, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkInstantText(b *testing.B) {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b.Run("format", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = day.Add(time.Duration(i%1440) * time.Minute).UTC().Format(time.RFC3339)
			i++
		}
	})
	b.Run("remembered", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = instantText(day.Add(time.Duration(i%1440) * time.Minute))
			i++
		}
	})
}
