package wire

import (
	"testing"

	"flightalliance/alliance/flight"
)

// FuzzCentsIsParseCents holds the fast reading of prices to flight.ParseCents: the same cents,
// or an error where it has one.
func FuzzCentsIsParseCents(f *testing.F) {
	for _, s := range []string{"512.00", "0.05", "000512.00", "999999999999.99", "1000000000000000.00", "512", "512.5",
		"512.005", "-512.00", "51a.00", ".00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := cents(s)
		want, wantErr := flight.ParseCents(s)
		if (gotErr == nil) != (wantErr == nil) || got != want {
			t.Fatalf("cents(%q) = %v, %v; flight.ParseCents: %v, %v", s, got, gotErr, want, wantErr)
		}
	})
}
