package search

import (
	"fmt"
	"strconv"
	"strings"
)

// maxCents keeps sums of prices far from int64 overflow (a trip has at most a few legs).
const maxCents = 1 << 50

// parseCents reads a non-negative decimal with at most two fraction digits ("512", "512.5",
// "512.00") as integer cents, so that prices are summed and compared exactly.
func parseCents(s string) (int64, error) {
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasDot && (frac == "" || len(frac) > 2 || !allDigits(frac))) {
		return 0, fmt.Errorf("price %q is not a decimal with at most two fraction digits", clip(s))
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > maxCents/100 {
		return 0, fmt.Errorf("price %q is out of range", clip(s))
	}
	var f int64
	if hasDot {
		f, _ = strconv.ParseInt(frac, 10, 64)
		if len(frac) == 1 {
			f *= 10
		}
	}
	return w*100 + f, nil
}

// formatCents writes cents the way API.md shows prices: "512.00".
func formatCents(c int64) string {
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
