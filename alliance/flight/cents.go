package flight

import (
	"math"
	"strconv"
	"strings"
)

// Cents is an amount of money in integer cents of the one currency of the system. Prices are
// never floats, so sums and comparisons are exact.
type Cents int64

// maxCentsDigits bounds the integer part of a price so that any sum of two legs fits in int64.
const maxCentsDigits = 15

// ParseCents reads a non-negative decimal with at most two fraction digits: "512", "512.5" and
// "512.00" are accepted; "1.234", "-1", "+1", ".5", "5.", "1e3" and "" are refused.
func ParseCents(s string) (Cents, error) {
	whole, frac, hasPoint := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) {
		return 0, fieldErrorf("price", "%q is not a non-negative decimal amount", s)
	}
	if hasPoint && (frac == "" || !allDigits(frac)) {
		return 0, fieldErrorf("price", "%q is not a non-negative decimal amount", s)
	}
	if len(frac) > 2 {
		return 0, fieldErrorf("price", "%q has more than two fraction digits", s)
	}
	if len(strings.TrimLeft(whole, "0")) > maxCentsDigits {
		return 0, fieldErrorf("price", "%q is too large", s)
	}
	units, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || units > math.MaxInt64/100 {
		return 0, fieldErrorf("price", "%q is too large", s)
	}
	c := units * 100
	switch len(frac) {
	case 1:
		c += int64(frac[0]-'0') * 10
	case 2:
		c += int64(frac[0]-'0')*10 + int64(frac[1]-'0')
	}
	return Cents(c), nil
}

// String formats with exactly two fraction digits: 51200 is "512.00", 5 is "0.05".
func (c Cents) String() string {
	var b [24]byte
	return string(c.AppendTo(b[:0]))
}

// AppendTo appends the String form to b.
func (c Cents) AppendTo(b []byte) []byte {
	u := uint64(c)
	if c < 0 {
		b = append(b, '-')
		u = uint64(-c)
	}
	b = strconv.AppendUint(b, u/100, 10)
	b = append(b, '.', byte('0'+u%100/10), byte('0'+u%10))
	return b
}

// MarshalText writes the String form, so JSON carries prices as "512.00".
func (c Cents) MarshalText() ([]byte, error) { return c.AppendTo(nil), nil }

// UnmarshalText reads what ParseCents accepts.
func (c *Cents) UnmarshalText(b []byte) error {
	v, err := ParseCents(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
