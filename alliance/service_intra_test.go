package alliance

import (
	"errors"
	"strings"
	"testing"

	"flightalliance/soap"
)

// TestRelevantArgsNameTheBadField: the getRelevantFlights operations refuse a bad airport, date
// or seller with a Client fault naming its field.
func TestRelevantArgsNameTheBadField(t *testing.T) {
	for _, tc := range []struct {
		date     string
		sellers  []string
		airports []string
		want     string // "" for none
	}{
		{"2026-12-01", []string{"LY"}, []string{"Src", "TLV", "Dst", "JFK"}, ""},
		{"2026-12-01", nil, []string{"Src", "TLV"}, ""},
		{"2026-12-01", nil, []string{"Src", "TLV", "Dst", "jfk"}, `Dst: "jfk" is not an IATA airport code`},
		{"2026-12-01", nil, []string{"Src", "TLVX", "Dst", "JFK"}, `Src: "TLVX" is not an IATA airport code`},
		{"2026-13-01", nil, []string{"Src", "TLV", "Dst", "JFK"}, `Date: "2026-13-01" is not a date`},
		{"2026-12-01", []string{"LY", "l y"}, []string{"Src", "TLV", "Dst", "JFK"}, `Sellers: "l y" is not a seller code`},
	} {
		d, err := relevantArgs(tc.date, tc.sellers, tc.airports...)
		if tc.want == "" {
			if err != nil || d.String() != tc.date {
				t.Errorf("%v %v %v: %v, %v; want the date", tc.date, tc.sellers, tc.airports, d, err)
			}
			continue
		}
		var f *soap.Fault
		if !errors.As(err, &f) || f.Code != soap.CodeClient || !strings.Contains(f.String, tc.want) {
			t.Errorf("%v %v %v: %v, want a Client fault with %q", tc.date, tc.sellers, tc.airports, err, tc.want)
		}
	}
}
