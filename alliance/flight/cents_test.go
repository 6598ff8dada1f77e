package flight

import (
	"errors"
	"testing"

	"pgregory.net/rapid"
)

func TestParseCents(t *testing.T) {
	good := map[string]Cents{
		"512":               51200,
		"512.5":             51250,
		"512.00":            51200,
		"0.05":              5,
		"0":                 0,
		"007.10":            710,
		"11258999068426.24": 1 << 50, // contract.MaxCents
	}
	for in, want := range good {
		got, err := ParseCents(in)
		if err != nil || got != want {
			t.Errorf("ParseCents(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.234", "-1", "-0.50", "+1", ".5", "5.", "1e3", "1,5", " 1", "1 ", "0x10", "1.2.3",
		"11258999068426.25", "999999999999999.99", "1000000000000000"} {
		got, err := ParseCents(in)
		if err == nil {
			t.Errorf("ParseCents(%q) = %d; want an error", in, got)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseCents(%q) error %v does not wrap ErrInvalid", in, err)
		}
	}
}

func TestCentsString(t *testing.T) {
	for c, want := range map[Cents]string{51200: "512.00", 5: "0.05", 0: "0.00", 1234567: "12345.67", -150: "-1.50"} {
		if got := c.String(); got != want {
			t.Errorf("Cents(%d).String() = %q; want %q", int64(c), got, want)
		}
	}
}

func TestCentsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := Cents(rapid.Int64Range(0, 1<<50).Draw(t, "cents"))
		back, err := ParseCents(c.String())
		if err != nil || back != c {
			t.Fatalf("ParseCents(%q) = %d, %v; want %d", c.String(), back, err, c)
		}
		var viaText Cents
		text, _ := c.MarshalText()
		if err := viaText.UnmarshalText(text); err != nil || viaText != c {
			t.Fatalf("text round trip of %d gave %d, %v", c, viaText, err)
		}
	})
}
