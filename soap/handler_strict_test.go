package soap

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRequestsAreReadStrictly: a request that gives a single element twice, holds an element its
// type does not have, puts an element where a value is wanted, nests deeper than any request,
// or is in another namespace gets a Client fault naming what is wrong, and the operation does
// not run (encoding/xml alone would run reserve with the last Seats, 999). A request in the
// service's namespace or none, with its repeated elements (Legs) and a value that does not
// convert, is read as before.
func TestRequestsAreReadStrictly(t *testing.T) {
	wrap := func(inner string) string {
		return `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` + inner + `</soap:Body></soap:Envelope>`
	}
	legs := `<Legs><Seller>LY</Seller><Flight>LY001</Flight></Legs>`
	for _, c := range []struct{ name, body, says string }{
		{"Seats twice", `<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance>` + legs + `<Seats>1</Seats><Seats>999</Seats><RequestID>k</RequestID></reserve>`, "<reserve><Seats> given twice"},
		{"Seller twice", `<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance><Legs><Seller>LY</Seller><Seller>UA</Seller><Flight>LY001</Flight></Legs><Seats>1</Seats><RequestID>k</RequestID></reserve>`, "<reserve><Legs><Seller> given twice"},
		{"unknown element", `<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance>` + legs + `<Seat>1</Seat><Seats>2</Seats><RequestID>k</RequestID></reserve>`, "<reserve>: unknown element <Seat>"},
		{"element in a value", `<reserve xmlns="urn:flightalliance:v1"><Alliance><x>star</x></Alliance>` + legs + `<Seats>2</Seats><RequestID>k</RequestID></reserve>`, "<reserve><Alliance> holds an element <x>"},
		{"foreign namespace", `<reserve xmlns="urn:not-flightalliance"><Alliance>star</Alliance>` + legs + `<Seats>2</Seats><RequestID>k</RequestID></reserve>`, `in namespace "urn:not-flightalliance"`},
		{"20000 deep", `<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance>` + legs + `<Seats>2</Seats><RequestID>k</RequestID><x>` + strings.Repeat("<a>", 20000) + strings.Repeat("</a>", 20000) + `</x></reserve>`, "unknown element <x>"},
		{"not a number", `<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance>` + legs + `<Seats>two</Seats><RequestID>k</RequestID></reserve>`, `Seats: "two" is not a number`},
		{"good", `<reserve xmlns="urn:flightalliance:v1"><Alliance>star</Alliance>` + legs + legs + `<Seats>2</Seats><RequestID>k</RequestID></reserve>`, ""},
		{"good, no namespace", `<reserve><Alliance>star</Alliance>` + legs + `<Seats>2</Seats><RequestID>k</RequestID></reserve>`, ""},
	} {
		ran := 0
		var got *ReserveRequest
		h := NewHandler(SellerService(Op(OpReserve, func(_ context.Context, r *ReserveRequest) (*ReserveResponse, error) {
			ran++
			got = r
			return &ReserveResponse{Booking: Booking{ID: "star.x"}, Created: true}, nil
		})), HandlerOptions{Address: "http://x"})
		req := httptest.NewRequest(http.MethodPost, SellerServicePath, strings.NewReader(wrap(c.body)))
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if c.says == "" {
			if rec.Code != http.StatusOK || ran != 1 || got.Seats != 2 || got.Alliance != "star" || len(got.Legs) == 0 || got.Legs[0].Flight != "LY001" {
				t.Errorf("%s: HTTP %d, ran %d, request %+v; want it read and run once", c.name, rec.Code, ran, got)
			}
			continue
		}
		body := rec.Body.String()
		if rec.Code != http.StatusInternalServerError || ran != 0 || !strings.Contains(body, "soap:Client") || !strings.Contains(body, xmlEscape(c.says)) {
			t.Errorf("%s: HTTP %d, ran %d, %s; want a Client fault saying %q and no call", c.name, rec.Code, ran, body, c.says)
		}
	}
}

// xmlEscape writes s as it appears in XML text.
func xmlEscape(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
}
