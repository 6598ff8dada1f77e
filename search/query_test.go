package search

import (
	"errors"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"flightalliance/contract"
	"flightalliance/soap"
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
	{"src=TLV&dst=JFK&date=2026-12-01&limit=0", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=1001", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=-1", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=ten", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=1.5", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=%2B5", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=%2010", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=10&limit=20", "limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&offset=-1", "offset"},
	{"src=TLV&dst=JFK&date=2026-12-01&offset=x", "offset"},
	{"src=TLV&dst=JFK&date=2026-12-01&offset=", "offset"},
	{"src=TLV&dst=JFK&date=2026-12-01&offset=99999999999999999999", "offset"},
	{"src=TLV&dst=JFK&date=2026-12-01&limit=5&offset=0x10", "offset"},
	{"src=TLV&dst=JFK&date=2026-12-01&nonstop=yes", "nonstop"},
	{"src=TLV&dst=JFK&date=2026-12-01&nonstop=1", "nonstop"},
	{"src=TLV&dst=JFK&date=2026-12-01&nonstop=", "nonstop"},
	{"src=TLV&dst=JFK&date=2026-12-01&nonstop=TRUE", "nonstop"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=cheap", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=-1", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=1.234", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=1e3", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=12,50", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&max_price=999999999999999999", "max_price"},
	{"src=TLV&dst=JFK&date=2026-12-01&sort=cheapest", "sort"},
	{"src=TLV&dst=JFK&date=2026-12-01&sort=", "sort"},
	{"src=TLV&dst=JFK&date=2026-12-01&sort=PRICE", "sort"},
	{"src=TLV&dst=JFK&date=2026-12-01&sort=price&sort=duration", "sort"},
	{"src=TLV&dst=JFK&date=2026-12-01&page=2", "page"},
	{"src=TLV&dst=JFK&date=2026-12-01&Limit=5", "Limit"},
	{"src=TLV&dst=JFK&date=2026-12-01&maxPrice=5", "maxPrice"},
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

func TestParseQueryReadsTheControls(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want Query
		req  soap.GetTripsRequest // what each alliance is asked, beyond src, dst and date
		echo QueryEcho            // beyond src, dst and date
	}{
		{raw: "", want: Query{}},
		{raw: "&limit=20", want: Query{Limit: 20}, req: soap.GetTripsRequest{MaxTrips: 20}, echo: QueryEcho{Limit: 20}},
		{raw: "&limit=1000&offset=40", want: Query{Limit: 1000, Offset: 40}, req: soap.GetTripsRequest{MaxTrips: 1040}, echo: QueryEcho{Limit: 1000, Offset: 40}},
		{raw: "&limit=1&offset=0", want: Query{Limit: 1}, req: soap.GetTripsRequest{MaxTrips: 1}, echo: QueryEcho{Limit: 1}},
		{raw: "&offset=7", want: Query{Offset: 7}, echo: QueryEcho{Offset: 7}},
		{raw: "&limit=20&offset=999999999999999999", want: Query{Limit: 20, Offset: 999999999999999999},
			req: soap.GetTripsRequest{MaxTrips: math.MaxInt32}, echo: QueryEcho{Limit: 20, Offset: 999999999999999999}},
		{raw: "&nonstop=true", want: Query{Nonstop: true}, req: soap.GetTripsRequest{Nonstop: true}, echo: QueryEcho{Nonstop: true}},
		{raw: "&nonstop=false", want: Query{}},
		{raw: "&max_price=123.4", want: Query{MaxPrice: 12340, HasMaxPrice: true}, req: soap.GetTripsRequest{MaxPrice: "123.40"}, echo: QueryEcho{MaxPrice: "123.40"}},
		{raw: "&max_price=0", want: Query{HasMaxPrice: true}, req: soap.GetTripsRequest{MaxPrice: "0.00"}, echo: QueryEcho{MaxPrice: "0.00"}},
		{raw: "&sort=price", want: Query{Sort: contract.ByPrice}},
		{raw: "&sort=duration", want: Query{Sort: contract.ByDuration}, req: soap.GetTripsRequest{Sort: "duration"}, echo: QueryEcho{Sort: "duration"}},
		{raw: "&sort=departure", want: Query{Sort: contract.ByDeparture}, req: soap.GetTripsRequest{Sort: "departure"}, echo: QueryEcho{Sort: "departure"}},
		{raw: "&sort=arrival&nonstop=true&max_price=99.99&limit=5&offset=5", want: Query{Sort: contract.ByArrival, Nonstop: true, MaxPrice: 9999, HasMaxPrice: true, Limit: 5, Offset: 5},
			req:  soap.GetTripsRequest{Sort: "arrival", Nonstop: true, MaxPrice: "99.99", MaxTrips: 10},
			echo: QueryEcho{Sort: "arrival", Nonstop: true, MaxPrice: "99.99", Limit: 5, Offset: 5}},
	} {
		v, err := url.ParseQuery("src=TLV&dst=JFK&date=2026-12-01" + tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseQuery(v)
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", tc.raw, err)
			continue
		}
		want := tc.want
		want.Src, want.Dst, want.Date = "TLV", "JFK", "2026-12-01"
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ParseQuery(%q) = %+v, want %+v", tc.raw, got, want)
		}
		req := tc.req
		req.Src, req.Dst, req.Date, req.ShareLegs = "TLV", "JFK", "2026-12-01", true
		if r := tripsRequest(got); !reflect.DeepEqual(r, req) {
			t.Errorf("%q asks the alliances %+v, want %+v", tc.raw, r, req)
		}
		echo := tc.echo
		echo.Src, echo.Dst, echo.Date = "TLV", "JFK", "2026-12-01"
		if e := got.Echo(); !reflect.DeepEqual(e, echo) {
			t.Errorf("%q is echoed %+v, want %+v", tc.raw, e, echo)
		}
	}
}

func TestParseQueryClipsEchoedInput(t *testing.T) {
	_, err := ParseQuery(url.Values{"src": {strings.Repeat("X", 10000)}, "dst": {"JFK"}, "date": {"2026-12-01"}})
	if err == nil || len(err.Error()) > 200 {
		t.Fatalf("error for a 10 kB src is %d bytes long: %.80q", len(err.Error()), err)
	}
}
