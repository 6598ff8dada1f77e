package search

import (
	"flightalliance/search/booking"

	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/wire"
	"flightalliance/search/merge"
	"flightalliance/soap"
)

// TestJSONBodiesAreReadStrictly: a booking or registration body with data after its object, a
// field given twice, or a field in another case than the API's is refused (400 naming the body
// or the field) and changes nothing: no machine is asked, no registration stored.
func TestJSONBodiesAreReadStrictly(t *testing.T) {
	for i, c := range []struct{ body, says string }{
		{goodBooking + "}", "body: unexpected data"},
		{goodBooking + "]", "body: unexpected data"},
		{goodBooking + "}}}", "body: unexpected data"},
		{`{"alliance":"star","legs":[{"seller":"LY","flight":"LY007"}],"seats":2,"seats":900}`, "seats: given twice"},
		{`{"alliance":"star","legs":[{"seller":"LY","flight":"LY007"}],"seats":2,"SEATS":900}`, "SEATS: unknown field"},
		{`{"alliance":"star","legs":[{"seller":"LY","flight":"LY007","flight":"LY008"}],"seats":2}`, "legs[0].flight: given twice"},
	} {
		m := newMachine("m1")
		ts := startAlliance(t, Config{}, m)
		code, b := ts.book(t, "strict-"+string(rune('a'+i)), c.body)
		if code != 400 || !strings.Contains(string(b), c.says) || len(m.called()) != 0 {
			t.Errorf("booking %s: %d %s, machine asked %v; want 400 saying %q and nothing asked", c.body, code, b, m.called(), c.says)
		}
	}
	for _, body := range []string{
		`{"uri":"http://a.test:1/Services/SellerService"}}`,
		`{"uri":"http://a.test:1/Services/SellerService","uri":"http://b.test:1/Services/SellerService"}`,
		`{"URI":"http://a.test:1/Services/SellerService"}`,
	} {
		ts := startSearch(t, Config{})
		code, b := do(t, "PUT", ts.URL+"/Services/FlightsSearchReg/Register/star", body)
		if regs := ts.list(t).Registrations; code != 400 || len(regs) != 0 {
			t.Errorf("registration %s: %d %s, registrations %+v; want 400 and none", body, code, b, regs)
		}
	}
}

// TestRegisterRefusesAPortOutOfRange: a delegate URI whose port is not 1-65535 is a 400 naming
// uri, and the alliance's working registration stays.
func TestRegisterRefusesAPortOutOfRange(t *testing.T) {
	ts := startSearch(t, Config{})
	ts.register(t, "star", "http://good.test:8101/Services/SellerService")
	for _, uri := range []string{"http://a.test:99999999/Services/SellerService", "http://a.test:0/Services/SellerService"} {
		code, b := do(t, "PUT", ts.URL+"/Services/FlightsSearchReg/Register/star", `{"uri":"`+uri+`"}`)
		regs := ts.list(t).Registrations
		if code != 400 || !strings.Contains(string(b), "uri") || len(regs) != 1 || regs[0].URI != "http://good.test:8101/Services/SellerService" {
			t.Errorf("%s: %d %s, registrations %+v; want 400 naming uri and the good one kept", uri, code, b, regs)
		}
	}
}

// TestBodylessBookingRoutesRefuseAnOversizedBody: confirm and cancel take no body; one over the
// limit is a 413 all the same, and the alliance is not asked.
func TestBodylessBookingRoutesRefuseAnOversizedBody(t *testing.T) {
	for _, method := range []string{"POST", "DELETE"} {
		m := newMachine("m1")
		ts := startAlliance(t, Config{}, m)
		path := ts.URL + booking.Path + "/" + sampleBookingID
		if method == "POST" {
			path += "/confirm"
		}
		code, _, b := send(t, method, path, strings.Repeat("x", maxBodyBytes+1), nil)
		if code != 413 || len(m.called()) != 0 {
			t.Errorf("%s with a body over the limit: %d %.80s, machine asked %v; want 413 and nothing asked", method, code, b, m.called())
		}
	}
}

// TestTheDearestFlightIsShown: a flight at the most a flight may cost (flight.MaxPrice, what
// the airline server's loader accepts) is shown by the search server, not refused as malformed.
func TestTheDearestFlightIsShown(t *testing.T) {
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC) // on tlvJFK's date
	f := flight.Flight{Number: "LY001", Seller: "LY", Src: "TLV", Dst: "JFK", Departure: dep, Arrival: dep.Add(11 * time.Hour),
		Price: flight.MaxPrice, Seats: flight.MaxSeats}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	ans := merge.Merge(tlvJFK, []merge.DelegateAnswer{{Alliance: "star", Resp: &soap.GetTripsResponse{
		Alliance: "star", Complete: true, Total: 1,
		Trips: []soap.Trip{{Price: f.Price.String(), Legs: []soap.Leg{wire.Leg(f, "star")}}},
	}}})
	if !ans.Complete || len(ans.Trips) != 1 {
		t.Fatalf("a flight at flight.MaxPrice: complete=%v trips=%d %+v", ans.Complete, len(ans.Trips), ans.Alliances)
	}
}
