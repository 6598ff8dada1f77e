package search

import (
	"flightalliance/search/booking"

	"net/http"
	"strings"
	"testing"
)

// TestBookingBadInputIs400NamingTheField sends every kind of bad booking request: each gets a
// 400 (413 for a body too large) whose error names the header, field or parameter, and none
// reaches the alliance.
func TestBookingBadInputIs400NamingTheField(t *testing.T) {
	m := newMachine("m1")
	ts := startAlliance(t, Config{}, m)
	key := map[string]string{booking.KeyHeader: "k1"}
	leg := func(s string) string { return `{"alliance":"star","legs":[` + s + `],"seats":1}` }
	cases := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		names                    string
	}{
		{"no key", "POST", booking.Path, goodBooking, nil, 400, "Idempotency-Key"},
		{"empty key", "POST", booking.Path, goodBooking, map[string]string{booking.KeyHeader: ""}, 400, "Idempotency-Key"},
		{"long key", "POST", booking.Path, goodBooking, map[string]string{booking.KeyHeader: strings.Repeat("k", 129)}, 400, "Idempotency-Key"},
		{"key with a tab", "POST", booking.Path, goodBooking, map[string]string{booking.KeyHeader: "a\tb"}, 400, "Idempotency-Key"},
		{"key not ASCII", "POST", booking.Path, goodBooking, map[string]string{booking.KeyHeader: "clé"}, 400, "Idempotency-Key"},
		{"query", "POST", booking.Path + "?hold=10m", goodBooking, key, 400, "query string"},
		{"no body", "POST", booking.Path, "", key, 400, "body"},
		{"bad JSON", "POST", booking.Path, `{"alliance":`, key, 400, "body"},
		{"array", "POST", booking.Path, `[]`, key, 400, "body"},
		{"trailing data", "POST", booking.Path, goodBooking + `{}`, key, 400, "body"},
		{"unknown field", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1,"class":"J"}`, key, 400, `class: unknown field`},
		{"unknown leg field", "POST", booking.Path, leg(`{"seller":"LY","flight":"LY001","date":"x"}`), key, 400, `legs[0].date: unknown field`},
		{"seats a string", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":"2"}`, key, 400, "seats: "},
		{"seats a fraction", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1.5}`, key, 400, "seats: "},
		{"alliance a number", "POST", booking.Path, `{"alliance":7,"legs":[{"seller":"LY","flight":"LY001"}],"seats":1}`, key, 400, "alliance: "},
		{"legs an object", "POST", booking.Path, `{"alliance":"star","legs":{},"seats":1}`, key, 400, "legs: "},
		{"leg a number", "POST", booking.Path, leg(`7`), key, 400, "legs[0]: "},
		{"second flight a number", "POST", booking.Path, leg(`{"seller":"LY","flight":"LY001"},{"seller":"UA","flight":220}`), key, 400, "legs[1].flight: "},
		{"hold a number", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1,"hold":600}`, key, 400, "hold: "},
		{"no alliance", "POST", booking.Path, `{"legs":[{"seller":"LY","flight":"LY001"}],"seats":1}`, key, 400, "alliance: "},
		{"alliance not a name", "POST", booking.Path, `{"alliance":"star alliance","legs":[{"seller":"LY","flight":"LY001"}],"seats":1}`, key, 400, "alliance: "},
		{"no legs", "POST", booking.Path, `{"alliance":"star","seats":1}`, key, 400, "legs: "},
		{"null legs", "POST", booking.Path, `{"alliance":"star","legs":null,"seats":1}`, key, 400, "legs: "},
		{"three legs", "POST", booking.Path, leg(`{"seller":"LY","flight":"LY1"},{"seller":"LY","flight":"LY2"},{"seller":"LY","flight":"LY3"}`), key, 400, "legs: "},
		{"no seller", "POST", booking.Path, leg(`{"flight":"LY001"}`), key, 400, "legs[0].seller: "},
		{"bad seller", "POST", booking.Path, leg(`{"seller":"ly","flight":"LY001"}`), key, 400, "legs[0].seller: "},
		{"no second flight", "POST", booking.Path, leg(`{"seller":"LY","flight":"LY001"},{"seller":"UA","flight":""}`), key, 400, "legs[1].flight: "},
		{"bad flight", "POST", booking.Path, leg(`{"seller":"LY","flight":"LY 001"}`), key, 400, "legs[0].flight: "},
		{"no seats", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}]}`, key, 400, "seats: "},
		{"negative seats", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":-1}`, key, 400, "seats: "},
		{"too many seats", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1001}`, key, 400, "seats: "},
		{"seats overflow", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1e30}`, key, 400, "seats: "},
		{"hold not a duration", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1,"hold":"ten minutes"}`, key, 400, "hold: "},
		{"hold too short", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1,"hold":"500ms"}`, key, 400, "hold: "},
		{"hold too long", "POST", booking.Path, `{"alliance":"star","legs":[{"seller":"LY","flight":"LY001"}],"seats":1,"hold":"25h"}`, key, 400, "hold: "},
		{"body too large", "POST", booking.Path, `{"alliance":"` + strings.Repeat("a", 70000) + `"}`, key, 413, "body"},
		{"cancel with a bad key", "DELETE", booking.Path + "/" + sampleBookingID, "", map[string]string{booking.KeyHeader: strings.Repeat("k", 129)}, 400, "Idempotency-Key"},
		{"confirm with a query", "POST", booking.Path + "/" + sampleBookingID + "/confirm?now=1", "", nil, 400, "query string"},
		{"seats without alliance", "GET", "/Services/FlightsSearch/seats?seller=LY&flight=LY001", "", nil, 400, "alliance: "},
		{"seats without seller", "GET", "/Services/FlightsSearch/seats?alliance=star&flight=LY001", "", nil, 400, "seller: "},
		{"seats without flight", "GET", "/Services/FlightsSearch/seats?alliance=star&seller=LY", "", nil, 400, "flight: "},
		{"seats, bad seller", "GET", "/Services/FlightsSearch/seats?alliance=star&seller=L&flight=LY001", "", nil, 400, "seller: "},
		{"seats, flight twice", "GET", "/Services/FlightsSearch/seats?alliance=star&seller=LY&flight=LY001&flight=LY002", "", nil, 400, "flight: "},
		{"seats, unknown parameter", "GET", "/Services/FlightsSearch/seats?alliance=star&seller=LY&flight=LY001&date=x", "", nil, 400, "date: "},
		{"seats, bad query", "GET", "/Services/FlightsSearch/seats?alliance=star;seller=LY", "", nil, 400, "alliance: "},
	}
	for _, c := range cases {
		code, _, body := send(t, c.method, ts.URL+c.path, c.body, c.header)
		if code != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, code, body, c.status)
			continue
		}
		if msg := errorOf(t, body); !strings.Contains(msg, c.names) {
			t.Errorf("%s: error %q does not name %q", c.name, msg, c.names)
		}
	}
	if calls := m.called(); len(calls) != 0 {
		t.Errorf("bad requests reached the alliance: %v", calls)
	}
	// The same server takes a good request: the refusals above were about the input.
	if code, body := ts.book(t, "k1", goodBooking); code != http.StatusCreated {
		t.Errorf("good booking: %d %s", code, body)
	}
}

func TestBookingKeyOfPrintableASCIIUpTo128IsAccepted(t *testing.T) {
	m := newMachine("m1")
	ts := startAlliance(t, Config{}, m)
	for _, key := range []string{"k", strings.Repeat("~", 128), "a b!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}"} {
		if code, body := ts.book(t, key, goodBooking); code != http.StatusCreated {
			t.Errorf("key %q: %d %s", key, code, body)
		}
	}
	if got := m.called(); len(got) != 3 || got[1] != "reserve "+strings.Repeat("~", 128) {
		t.Errorf("calls %q", got)
	}
}
