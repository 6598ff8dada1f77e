package search

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestParseQueryAcceptsValidQueries(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want Query
	}{
		{"src=TLV&dst=JFK&date=2026-12-01", Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}},
		{"src=TLV&dst=JFK&date=2026-12-01&servers=LY,UA", Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Sellers: []string{"LY", "UA"}}},
		{"servers=UA,LY,UA&date=2028-02-29&dst=JFK&src=TLV", Query{Src: "TLV", Dst: "JFK", Date: "2028-02-29", Sellers: []string{"UA", "LY"}}},
		{"src=TLV&dst=JFK&date=2026-12-01&servers=A1B2C3D4", Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01", Sellers: []string{"A1B2C3D4"}}},
	} {
		v, err := url.ParseQuery(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseQuery(v)
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", tc.raw, err)
			continue
		}
		if got.Src != tc.want.Src || got.Dst != tc.want.Dst || got.Date != tc.want.Date || !slices.Equal(got.Sellers, tc.want.Sellers) {
			t.Errorf("ParseQuery(%q) = %+v, want %+v", tc.raw, got, tc.want)
		}
	}
}

// badQueries is every way a search query is refused; the error must name Field.
var badQueries = []struct {
	raw   string
	field string
}{
	{"dst=JFK&date=2026-12-01", "src"},
	{"src=&dst=JFK&date=2026-12-01", "src"},
	{"src=tlv&dst=JFK&date=2026-12-01", "src"},
	{"src=TLVX&dst=JFK&date=2026-12-01", "src"},
	{"src=T1V&dst=JFK&date=2026-12-01", "src"},
	{"src=TLV&date=2026-12-01", "dst"},
	{"src=TLV&dst=JF&date=2026-12-01", "dst"},
	{"src=TLV&dst=TLV&date=2026-12-01", "dst"},
	{"src=TLV&dst=JFK", "date"},
	{"src=TLV&dst=JFK&date=", "date"},
	{"src=TLV&dst=JFK&date=2026-13-01", "date"},
	{"src=TLV&dst=JFK&date=2026-02-29", "date"},
	{"src=TLV&dst=JFK&date=2026-1-01", "date"},
	{"src=TLV&dst=JFK&date=01/12/2026", "date"},
	{"src=TLV&dst=JFK&date=2026-12-01T00:00:00Z", "date"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=ly", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=LY,", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=L", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=ABCDEFGHI", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=LY%3BUA", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=" + strings.Repeat("LY,", 64) + "UA", "servers"},
	{"src=TLV&src=ATH&dst=JFK&date=2026-12-01", "src"},
	{"src=TLV&dst=JFK&date=2026-12-01&date=2026-12-02", "date"},
	{"src=TLV&dst=JFK&date=2026-12-01&servers=LY&servers=UA", "servers"},
	{"src=TLV&dst=JFK&date=2026-12-01&sellers=LY", "sellers"},
	{"src=TLV&dst=JFK&date=2026-12-01&SRC=TLV", "SRC"},
	{"from=TLV&dst=JFK&date=2026-12-01", "from"},
}

func TestParseQueryRefusesBadInputNamingTheParameter(t *testing.T) {
	for _, tc := range badQueries {
		v, err := url.ParseQuery(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ParseQuery(v)
		if !errors.Is(err, ErrInvalidInput) {
			t.Errorf("ParseQuery(%q) = %v, want ErrInvalidInput", tc.raw, err)
			continue
		}
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("ParseQuery(%q) = %v, want an error naming %q", tc.raw, err, tc.field)
		}
		if !strings.HasPrefix(err.Error(), tc.field+": ") {
			t.Errorf("ParseQuery(%q) message %q does not start with the parameter name", tc.raw, err)
		}
	}
}

func TestParseQueryClipsEchoedInput(t *testing.T) {
	_, err := ParseQuery(url.Values{"src": {strings.Repeat("X", 10000)}, "dst": {"JFK"}, "date": {"2026-12-01"}})
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error for a 10 kB src is %d bytes long: %.80q", len(err.Error()), err)
	}
}
