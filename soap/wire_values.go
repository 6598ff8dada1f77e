package soap

import "time"

// This file reads the values of a flight's wire form (Flight, Leg) fast in the form the servers
// write them, leaving any other form to the caller's full parser.

// ParseInstant is time.Parse(time.RFC3339, s), at about half its cost (BenchmarkParseInstant)
// for the form the servers write (Flight.Departure and Arrival: "2026-12-01T08:00:00Z", UTC, no
// fraction, a year from 1): a search reads two per flight, thousands of flights. Any other form,
// and any value out of range, is left to time.Parse, so the result and the error are
// time.Parse's (FuzzParseInstant).
func ParseInstant(s string) (time.Time, error) {
	if len(s) == 20 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == 'Z' {
		y, ok1 := digits(s[0:4])
		mo, ok2 := digits(s[5:7])
		d, ok3 := digits(s[8:10])
		h, ok4 := digits(s[11:13])
		mi, ok5 := digits(s[14:16])
		sec, ok6 := digits(s[17:19])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(mo, y) &&
			h < 24 && mi < 60 && sec < 60 {
			return time.Unix(daysSinceEpoch(y, mo, d)*86400+int64(h*3600+mi*60+sec), 0).UTC(), nil
		}
	}
	return time.Parse(time.RFC3339, s)
}

// daysSinceEpoch is the number of days from 1970-01-01 to the date y-mo-d of the proleptic
// Gregorian calendar (Howard Hinnant's days_from_civil): time.Date's work without its
// normalisation, which a checked date does not need.
func daysSinceEpoch(y, mo, d int) int64 {
	if mo <= 2 {
		y--
	}
	era := y / 400 // y ≥ 0 (ParseInstant reads years from 1)
	yoe := y - era*400
	m := (mo + 9) % 12 // March is 0
	doy := (153*m+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
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
