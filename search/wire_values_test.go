package search

import "testing"

// FuzzCentsOfIsParseCents holds the fast reading of delegates' prices to parseCents.
func FuzzCentsOfIsParseCents(f *testing.F) {
	for _, s := range []string{"512.00", "0.05", "000512.00", "999999999999.99", "11258999068426.24", "512", "512.5",
		"512.005", "-512.00", "51a.00", ".00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := centsOf(s)
		want, wantErr := parseCents(s)
		if (gotErr == nil) != (wantErr == nil) || got != want {
			t.Fatalf("centsOf(%q) = %v, %v; parseCents: %v, %v", s, got, gotErr, want, wantErr)
		}
	})
}
