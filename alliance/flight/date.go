package flight

import (
	"fmt"
	"time"
)

// Date is a calendar day in UTC, the unit a search asks for. It is comparable and usable as a map
// key; the zero Date is not a valid day.
type Date struct {
	Y int
	M time.Month
	D int
}

const dateLayout = "2006-01-02"

// ParseDate reads an ISO date "2026-12-01" and refuses any other form ("2026-12-1",
// "2026-12-01T00:00:00Z", "2026-02-30").
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil || t.Format(dateLayout) != s {
		return Date{}, fieldErrorf("date", "%q is not a date of the form 2026-12-01", s)
	}
	return DateOf(t), nil
}

// DateOf is the UTC calendar day of t.
func DateOf(t time.Time) Date {
	y, m, d := t.UTC().Date()
	return Date{Y: y, M: m, D: d}
}

// Start is midnight UTC at the beginning of d.
func (d Date) Start() time.Time { return time.Date(d.Y, d.M, d.D, 0, 0, 0, 0, time.UTC) }

// AddDays is the day n days after d (before, for negative n).
func (d Date) AddDays(n int) Date { return DateOf(d.Start().AddDate(0, 0, n)) }

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool {
	if d.Y != e.Y {
		return d.Y < e.Y
	}
	if d.M != e.M {
		return d.M < e.M
	}
	return d.D < e.D
}

// String is the ISO form "2026-12-01".
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Y, int(d.M), d.D) }

// MarshalText writes the ISO form, so JSON carries dates as "2026-12-01".
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads what ParseDate accepts.
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
