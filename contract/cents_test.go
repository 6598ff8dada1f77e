package contract

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestParseCents(t *testing.T) {
	good := map[string]Cents{
		"512":                                51200,
		"512.5":                              51250,
		"512.00":                             51200,
		"0.5":                                50,
		"0.05":                               5,
		"10.10":                              1010,
		"0":                                  0,
		"007.10":                             710,
		"000512.00":                          51200,
		"999999999999.99":                    99999999999999,
		"11258999068426.24":                  MaxCents, // the bound
		"11258999068426.2":                   MaxCents - 4,
		"0000000000000000000011258999068426": MaxCents - 24,
	}
	for in, want := range good {
		got, err := ParseCents(in)
		if err != nil || got != want {
			t.Errorf("ParseCents(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1.234", "5.123", "-1", "-0.50", "+1", ".5", "5.", "1e3", "1,5", "5,00", " 1", "1 ",
		"0x10", "1.2.3", "NaN", "11258999068426.25", "11258999068427", "99999999999999", "999999999999999.99",
		"1000000000000000", "1000000000000000.00", "99999999999999999999"} {
		got, err := ParseCents(in)
		if err == nil {
			t.Errorf("ParseCents(%q) = %d; want an error", in, got)
			continue
		}
		if _, ok := errors.AsType[*PriceError](err); !ok {
			t.Errorf("ParseCents(%q) error %v is not a *PriceError", in, err)
		}
	}
}

func TestCentsString(t *testing.T) {
	for c, want := range map[Cents]string{51200: "512.00", 5: "0.05", 0: "0.00", 1234567: "12345.67", -150: "-1.50",
		MaxCents: "11258999068426.24"} {
		if got := c.String(); got != want {
			t.Errorf("Cents(%d).String() = %q; want %q", int64(c), got, want)
		}
	}
}

// TestCentsRoundTrip holds String and ParseCents to each other over every price up to the bound.
func TestCentsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := Cents(rapid.Int64Range(0, int64(MaxCents)).Draw(t, "cents"))
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

// TestParseCentsReadsDecimals holds ParseCents to what a decimal with at most two fraction
// digits means, for any such text a rapid draws (leading zeros, one or two fraction digits).
func TestParseCentsReadsDecimals(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		zeros := strings.Repeat("0", rapid.IntRange(0, 3).Draw(t, "zeros"))
		units := rapid.Int64Range(0, int64(MaxCents)/100-1).Draw(t, "units")
		frac := rapid.SampledFrom([]string{"", ".5", ".05", ".50", ".99", ".0"}).Draw(t, "frac")
		s := zeros + strconv.FormatInt(units, 10) + frac
		want := units * 100
		if len(frac) > 1 {
			f, _ := strconv.Atoi(frac[1:])
			if len(frac) == 2 {
				f *= 10
			}
			want += int64(f)
		}
		got, err := ParseCents(s)
		if err != nil || int64(got) != want {
			t.Fatalf("ParseCents(%q) = %d, %v; want %d", s, got, err, want)
		}
	})
}

var priceSeeds = []string{"512.00", "0.05", "0.00", "000512.00", "999999999999.99", "1000000000000.00",
	"11258999068426.24", "11258999068426.25", "999999999999999.99", "1000000000000000.00", "512", "512.5", "512.005", "-512.00",
	"+512.00", "51a.00", "512.0a", ".00", "512,00", "", "1e3.00"}

// FuzzFastCentsIsParseCents holds the fast reading of the servers' form to the full reading:
// when it reads a price, the price is digits, a point and two digits, its cents are those digits
// read as one number, and the full reading (parseDecimal) gives the same cents.
func FuzzFastCentsIsParseCents(f *testing.F) {
	for _, s := range priceSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, ok := fastCents(s)
		whole, frac, dot := strings.Cut(s, ".")
		form := dot && len(frac) == 2 && len(whole) >= 1 && len(whole) <= 12 && allDigits(whole) && allDigits(frac)
		if ok != form {
			t.Fatalf("fastCents(%q): ok %v, want %v", s, ok, form)
		}
		if !ok {
			return
		}
		want, err := strconv.ParseInt(whole+frac, 10, 64)
		if err != nil || int64(fast) != want {
			t.Fatalf("fastCents(%q) = %d, want %d", s, fast, want)
		}
		if full, err := parseDecimal(s); err != nil || full != fast {
			t.Fatalf("fastCents(%q) = %d; parseDecimal: %d, %v", s, fast, full, err)
		}
	})
}

// FuzzParseCentsRoundTrip holds every price ParseCents reads to its bound and to String: the
// text written back reads as the same cents.
func FuzzParseCentsRoundTrip(f *testing.F) {
	for _, s := range priceSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCents(s)
		if err != nil {
			return
		}
		if c < 0 || c > MaxCents {
			t.Fatalf("ParseCents(%q) = %d, outside 0..MaxCents", s, c)
		}
		if back, err := ParseCents(c.String()); err != nil || back != c {
			t.Fatalf("ParseCents(%q) = %d, but its String %q reads as %d, %v", s, c, c.String(), back, err)
		}
	})
}
