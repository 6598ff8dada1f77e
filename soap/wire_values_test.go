package soap

import (
	"testing"
	"time"
)

// sameAsTimeParse fails unless ParseInstant(s) is time.Parse(time.RFC3339, s): the same instant
// in the same location, or the same error.
func sameAsTimeParse(t *testing.T, s string) {
	t.Helper()
	got, gotErr := ParseInstant(s)
	want, wantErr := time.Parse(time.RFC3339, s)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("ParseInstant(%q): error %v, time.Parse: %v", s, gotErr, wantErr)
	}
	if !got.Equal(want) || got.Location().String() != want.Location().String() {
		t.Fatalf("ParseInstant(%q) = %v, time.Parse: %v", s, got, want)
	}
}

var instantSeeds = []string{
	"2026-12-01T08:00:00Z", "2024-02-29T23:59:59Z", "2023-02-29T10:00:00Z", "2100-02-29T00:00:00Z",
	"2000-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
	"2026-12-00T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T23:60:00Z", "2026-12-01T23:59:60Z",
	"2026-12-01T08:00:00+02:00", "2026-12-01T08:00:00.5Z", "2026-12-01t08:00:00z", "0000-01-01T00:00:00Z",
	"9999-12-31T23:59:59Z", "2026-1-01T08:00:00Z", "2026-12-01T08:00:0xZ", "+026-12-01T08:00:00Z",
	"2026-12-01 08:00:00Z", "", "Z",
}

func TestParseInstantIsTimeParse(t *testing.T) {
	for _, s := range instantSeeds {
		sameAsTimeParse(t, s)
	}
	// Every day of a leap year and of a common one, at the day's first and last second.
	for _, year := range []int{2024, 2026} {
		for d := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() == year; d = d.AddDate(0, 0, 1) {
			sameAsTimeParse(t, d.Format(time.RFC3339))
			sameAsTimeParse(t, d.Add(24*time.Hour-time.Second).Format(time.RFC3339))
		}
	}
}

func FuzzParseInstant(f *testing.F) {
	for _, s := range instantSeeds {
		f.Add(s)
	}
	f.Fuzz(sameAsTimeParse)
}

// BenchmarkParseInstant reads a day's departures both ways; speedup is time.Parse's time over
// ParseInstant's.
func BenchmarkParseInstant(b *testing.B) {
	texts := make([]string, 1440)
	for i := range texts {
		texts[i] = time.Date(2026, 12, 1, 0, i, 0, 0, time.UTC).Format(time.RFC3339)
	}
	timeOf := func(parse func(string) (time.Time, error)) time.Duration {
		start := time.Now()
		for range 20 {
			for _, s := range texts {
				if _, err := parse(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		return time.Since(start)
	}
	var fast, slow time.Duration
	for b.Loop() {
		fast += timeOf(ParseInstant)
		slow += timeOf(func(s string) (time.Time, error) { return time.Parse(time.RFC3339, s) })
	}
	b.ReportMetric(float64(slow)/float64(fast), "speedup")
}
