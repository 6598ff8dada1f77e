package flight

import (
	"errors"

	"flightalliance/contract"
)

// Cents is an amount of money in integer cents of the one currency of the system: the
// contract's, which the search server reads alike (its String is the wire form, "512.00").
type Cents = contract.Cents

// ParseCents reads a price as contract.ParseCents does — a non-negative decimal with at most two
// fraction digits: "512", "512.5" and "512.00" are accepted; "1.234", "-1", "+1", ".5", "5.",
// "1e3" and "" are refused — with its error a *FieldError naming the price.
func ParseCents(s string) (Cents, error) {
	c, err := contract.ParseCents(s)
	if pe, ok := errors.AsType[*contract.PriceError](err); ok {
		return 0, fieldErrorf("price", "%q %s", s, pe.Reason)
	}
	return c, err
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
