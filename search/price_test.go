package search

import "testing"

func TestParseCents(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"512.00", 51200}, {"512", 51200}, {"0.5", 50}, {"0.05", 5}, {"10.10", 1010}, {"0", 0}} {
		got, err := parseCents(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseCents(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if back := formatCents(got); tc.in == "512.00" && back != tc.in {
			t.Errorf("formatCents(%d) = %q", got, back)
		}
	}
	for _, bad := range []string{"", ".5", "5.", "5.123", "-5", "+5", "5,00", "1e3", " 5", "99999999999999999999", "NaN"} {
		if got, err := parseCents(bad); err == nil {
			t.Errorf("parseCents(%q) = %d, want an error", bad, got)
		}
	}
}
