package search

import "time"

// priceString is cents as API.md writes prices ("512.00"): s itself when s, which parseCents
// read as cents, is already written so (as delegates write prices), else a new string.
func priceString(s string, cents int64) string {
	n := len(s)
	if n >= 4 && s[n-3] == '.' && (s[0] != '0' || n == 4) {
		return s
	}
	return formatCents(cents)
}

// parseInstant is time.Parse(time.RFC3339, s), without its cost for the form delegates send
// ("2026-12-01T08:00:00Z"); any other form, and any value out of range, is left to time.Parse.
func parseInstant(s string) (time.Time, error) {
	if len(s) == 20 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == 'Z' {
		y, ok1 := digits(s[0:4])
		mo, ok2 := digits(s[5:7])
		d, ok3 := digits(s[8:10])
		h, ok4 := digits(s[11:13])
		mi, ok5 := digits(s[14:16])
		sec, ok6 := digits(s[17:19])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(mo, y) &&
			h < 24 && mi < 60 && sec < 60 {
			return time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC), nil
		}
	}
	return time.Parse(time.RFC3339, s)
}

// daysIn is the number of days of month mo (1-12) of year y.
func daysIn(mo, y int) int {
	switch mo {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// centsOf is parseCents, without its cost for the form delegates send ("512.00").
func centsOf(s string) (int64, error) {
	n := len(s)
	if n >= 4 && n <= 15 && s[n-3] == '.' {
		whole, ok1 := digits(s[:n-3])
		frac, ok2 := digits(s[n-2:])
		if ok1 && ok2 {
			return int64(whole)*100 + int64(frac), nil
		}
	}
	return parseCents(s)
}

// digits reads a fixed-width run of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
