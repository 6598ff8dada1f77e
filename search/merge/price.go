package merge

import "flightalliance/contract"

// priceString is cents as docs/api.md writes prices ("512.00"): s itself when s, which
// contract.ParseCents read as cents, is already written so (as delegates write prices), else a
// new string.
func priceString(s string, cents contract.Cents) string {
	n := len(s)
	if n >= 4 && s[n-3] == '.' && (s[0] != '0' || n == 4) {
		return s
	}
	return cents.String()
}
