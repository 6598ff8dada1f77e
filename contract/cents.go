package contract

import (
	"fmt"
	"strconv"
	"strings"
)

// Cents is an amount of money in integer cents of the one currency of the system. Prices are
// never floats, so sums and comparisons are exact.
type Cents int64

// MaxCents is the largest price ParseCents reads: 2^50 cents (11258999068426.24). Both sides
// read prices with this bound, so a text one side reads as a price the other reads too. Of the
// bounds the sides had (the search server's 2^50 cents, the airline's 15 integer digits, the SOAP
// fast path's 12) it is the search server's, which docs/api.md states: the most an answer shows and a
// booking may cost per seat, so that a flight costs at most half of it (flight.MaxPrice) and a
// trip of two legs at most all of it. It is below 2^53, so a JSON client in JavaScript counts any
// price in cents exactly, and far from int64's end, so sums of a few never overflow.
const MaxCents Cents = 1 << 50

// maxWholeDigits is the most significant digits before the point a price within MaxCents has.
const maxWholeDigits = 14

// PriceError says why a text is not a price; Reason reads after the text ("is too large").
type PriceError struct {
	Text   string
	Reason string
}

func (e *PriceError) Error() string { return fmt.Sprintf("price %q %s", clip(e.Text), e.Reason) }

// The reasons of a PriceError.
const (
	reasonNotDecimal = "is not a non-negative decimal amount"
	reasonFraction   = "has more than two fraction digits"
	reasonTooLarge   = "is too large"
)

// ParseCents reads a non-negative decimal with at most two fraction digits, at most MaxCents:
// "512", "512.5", "512.00" and "007.10" are
// accepted; "1.234", "-1", "+1", ".5", "5.", "1e3", " 1" and "" are refused with a *PriceError.
// The form the servers write ("512.00") is read without the general path's cost: a search reads
// a price per leg, thousands of legs.
func ParseCents(s string) (Cents, error) {
	if c, ok := fastCents(s); ok {
		return c, nil
	}
	return parseDecimal(s)
}

// parseDecimal is ParseCents for any text: the full reading.
func parseDecimal(s string) (Cents, error) {
	whole, frac, hasPoint := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasPoint && (frac == "" || !allDigits(frac))) {
		return 0, &PriceError{s, reasonNotDecimal}
	}
	if len(frac) > 2 {
		return 0, &PriceError{s, reasonFraction}
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > maxWholeDigits {
		return 0, &PriceError{s, reasonTooLarge}
	}
	var units int64
	if whole != "" {
		units, _ = strconv.ParseInt(whole, 10, 64) // at most 14 digits: always fits
	}
	c := units * 100
	switch len(frac) {
	case 1:
		c += int64(frac[0]-'0') * 10
	case 2:
		c += int64(frac[0]-'0')*10 + int64(frac[1]-'0')
	}
	if Cents(c) > MaxCents {
		return 0, &PriceError{s, reasonTooLarge}
	}
	return Cents(c), nil
}

// fastCents reads a price in the form the servers write it (digits, a point, two digits; at
// most 12 digits before the point, so within MaxCents); ok is false for any other form,
// which parseDecimal reads or refuses. Such a price reads alike either way
// (FuzzFastCentsIsParseCents).
func fastCents(s string) (c Cents, ok bool) {
	n := len(s)
	if n < 4 || n > 15 || s[n-3] != '.' {
		return 0, false
	}
	var v int64
	for i := range n {
		if i == n-3 {
			continue
		}
		d := s[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		v = v*10 + int64(d-'0')
	}
	return Cents(v), true
}

// String is the price as the API writes it, with exactly two fraction digits: 51200 is "512.00",
// 5 is "0.05".
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
	return append(b, '.', byte('0'+u%100/10), byte('0'+u%10))
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

// clip keeps an echoed text short, so an error message cannot be used to reflect a huge value.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
