package search

import "flightalliance/soap"

// priceString is cents as API.md writes prices ("512.00"): s itself when s, which parseCents
// read as cents, is already written so (as delegates write prices), else a new string.
func priceString(s string, cents int64) string {
	n := len(s)
	if n >= 4 && s[n-3] == '.' && (s[0] != '0' || n == 4) {
		return s
	}
	return formatCents(cents)
}

// centsOf is parseCents, without its cost for the form delegates send ("512.00").
func centsOf(s string) (int64, error) {
	if c, ok := soap.PriceCents(s); ok {
		return c, nil
	}
	return parseCents(s)
}
