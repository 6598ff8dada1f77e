package flight

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	d, err := ParseDate("2026-12-01")
	if err != nil || d != (Date{2026, time.December, 1}) {
		t.Fatalf("ParseDate(2026-12-01) = %v, %v", d, err)
	}
	if d.String() != "2026-12-01" {
		t.Errorf("String() = %q", d.String())
	}
	for _, in := range []string{"", "2026-12-1", "2026-2-01", "26-12-01", "2026-12-01T00:00:00Z", "2026-02-30",
		"2026-13-01", "2026/12/01", " 2026-12-01", "2026-12-01 "} {
		if d, err := ParseDate(in); err == nil {
			t.Errorf("ParseDate(%q) = %v; want an error", in, d)
		}
	}
}

func TestDateOfIsUTC(t *testing.T) {
	// 23:30 on 30 November in New York is already 1 December in UTC.
	ny := time.FixedZone("EST", -5*3600)
	if got := DateOf(time.Date(2026, 11, 30, 23, 30, 0, 0, ny)); got != (Date{2026, time.December, 1}) {
		t.Errorf("DateOf = %v; want 2026-12-01", got)
	}
	d := Date{2026, time.December, 31}
	if got := d.AddDays(1); got != (Date{2027, time.January, 1}) {
		t.Errorf("AddDays(1) = %v", got)
	}
	if !d.Before(d.AddDays(1)) || d.AddDays(1).Before(d) || d.Before(d) {
		t.Error("Before is not a strict order on consecutive days")
	}
	if !d.Start().Equal(time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Start() = %v", d.Start())
	}
}
