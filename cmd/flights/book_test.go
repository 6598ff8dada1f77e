package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBookPrintsTheBookingAndSendsTheKey(t *testing.T) {
	s := startCanned(t)
	code, out, errOut := flights("book", "--server", s.URL, "--alliance", "star", "--legs", "LY:LY007,UA:UA220", "--seats", "2", "--hold", "10m", "--key", "trip-1")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"booking   " + bookingID, "status    held", "seats     2", "price     860.00",
		"expires   2026-11-23 10:10Z", "LY007   LY      TLV-ATH  2026-12-01 06:00Z", "UA220   UA      ATH-JFK", "41"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	got := s.requests()
	if len(got) != 1 || got[0].key != "trip-1" {
		t.Fatalf("requests %+v", got)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(got[0].body), &body); err != nil {
		t.Fatal(err)
	}
	if want := `{"alliance":"star","legs":[{"seller":"LY","flight":"LY007"},{"seller":"UA","flight":"UA220"}],"seats":2,"hold":"10m"}`; got[0].body != want {
		t.Errorf("body %s, want %s", got[0].body, want)
	}
}

func TestBookWithoutKeyMakesOneAndPrintsIt(t *testing.T) {
	s := startCanned(t)
	code, _, errOut := flights("book", "--server", s.URL, "--alliance", "star", "--legs", "LY:LY001")
	got := s.requests()
	if code != exitOK || len(got) != 1 || len(got[0].key) < 32 {
		t.Fatalf("exit %d, requests %+v", code, got)
	}
	if !strings.Contains(errOut, "--key "+got[0].key) {
		t.Errorf("stderr %q does not show the key %q sent", errOut, got[0].key)
	}
	flights("book", "--server", s.URL, "--alliance", "star", "--legs", "LY:LY001")
	if again := s.requests(); again[1].key == got[0].key {
		t.Errorf("two bookings got the same random key %q", got[0].key)
	}
	if !strings.Contains(got[0].body, `"seats":1`) {
		t.Errorf("default seats: %s", got[0].body)
	}
}

func TestBookExitCodes(t *testing.T) {
	s := startCanned(t)
	book := []string{"book", "--server", s.URL, "--alliance", "star", "--legs", "LY:LY007,UA:UA220", "--seats", "2", "--key"}
	for _, c := range []struct {
		key    string
		exit   int
		stderr string
	}{
		{"again", exitOK, "had already made this booking"},
		{"full", exitUsage, "flight LY007 has 1 seat left"},
		{"bad", exitUsage, "--legs: legs[1].flight: seller UA has no flight"},
		{"down", exitUnreliable, "retry with --key down"},
		{"junk", exitUnreliable, "not the expected JSON"},
	} {
		code, _, errOut := flights(append(book, c.key)...)
		if code != c.exit || !strings.Contains(errOut, c.stderr) {
			t.Errorf("key %s: exit %d, stderr %q; want %d saying %q", c.key, code, errOut, c.exit, c.stderr)
		}
	}
	code, _, errOut := flights("book", "--server", unreachable(t), "--alliance", "star", "--legs", "LY:LY001", "--key", "k1")
	if code != exitUnreliable || !strings.Contains(errOut, "unreachable") || !strings.Contains(errOut, "--key k1") {
		t.Errorf("unreachable: exit %d, stderr %q", code, errOut)
	}
}

func TestBookBadFlagsExit1NamingTheFlagAndSendNothing(t *testing.T) {
	s := startCanned(t)
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--legs", "LY:LY001"}, "--alliance"},
		{[]string{"--alliance", "star"}, "--legs"},
		{[]string{"--alliance", "star", "--legs", "LY001"}, "--legs"},
		{[]string{"--alliance", "star", "--legs", "ly:LY001"}, "--legs"},
		{[]string{"--alliance", "star", "--legs", "LY:"}, "--legs"},
		{[]string{"--alliance", "star", "--legs", "LY:LY1,LY:LY2,LY:LY3"}, "--legs"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--seats", "0"}, "--seats"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--seats", "1001"}, "--seats"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--hold", "soon"}, "--hold"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--hold", "48h"}, "--hold"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--key", strings.Repeat("k", 129)}, "--key"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--key", "k\x01"}, "--key"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--key", " k"}, "--key"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--timeout", "0s"}, "--timeout"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "--server", "127.0.0.1:8080"}, "--server"},
		{[]string{"--alliance", "star", "--legs", "LY:LY001", "extra"}, "extra"},
	} {
		args := append([]string{"book", "--server", s.URL}, c.args...)
		code, _, errOut := flights(args...)
		if code != exitUsage || !strings.Contains(errOut, c.flag) {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming %s", c.args, code, errOut, c.flag)
		}
	}
	if got := s.requests(); len(got) != 0 {
		t.Errorf("bad flags reached the server: %+v", got)
	}
}

func TestBookingCancelConfirm(t *testing.T) {
	s := startCanned(t)
	for _, c := range []struct {
		args         []string
		exit         int
		out          string
		method, path string
		key          string
	}{
		{[]string{"booking", "--server", s.URL, bookingID}, exitOK, "status    held", "GET", "/" + bookingID, ""},
		{[]string{"booking", bookingID, "--server", s.URL}, exitOK, "status    held", "GET", "/" + bookingID, ""},
		{[]string{"cancel", "--server", s.URL, "--key", "c1", bookingID}, exitOK, "status    cancelled", "DELETE", "/" + bookingID, "c1"},
		{[]string{"confirm", "--server", s.URL, bookingID}, exitOK, "status    confirmed", "POST", "/" + bookingID + "/confirm", ""},
		{[]string{"confirm", "--server", s.URL, expiredID}, exitUsage, "expired at", "POST", "/" + expiredID + "/confirm", ""},
		{[]string{"booking", "--server", s.URL, "star.unknown"}, exitUsage, "no booking star.unknown", "GET", "/star.unknown", ""},
		{[]string{"cancel", "--server", s.URL, "nope"}, exitUsage, "no booking nope", "DELETE", "/nope", ""},
	} {
		before := len(s.requests())
		code, out, errOut := flights(c.args...)
		if code != c.exit || !strings.Contains(out+errOut, c.out) {
			t.Errorf("%v: exit %d, %q %q; want %d with %q", c.args, code, out, errOut, c.exit, c.out)
		}
		got := s.requests()
		if len(got) != before+1 {
			t.Errorf("%v: %d requests", c.args, len(got)-before)
			continue
		}
		r := got[len(got)-1]
		if r.method != c.method || r.path != "/Services/FlightsSearch/bookings"+c.path || r.key != c.key {
			t.Errorf("%v: sent %+v", c.args, r)
		}
	}

	code, out, _ := flights("booking", "--server", s.URL, "--json", bookingID)
	if code != exitOK || strings.TrimSpace(out) != cannedBooking("held") {
		t.Errorf("--json: exit %d, %q", code, out)
	}
	for _, cmd := range []string{"booking", "cancel", "confirm"} {
		if code, _, errOut := flights(cmd, "--server", unreachable(t), bookingID); code != exitUnreliable || !strings.Contains(errOut, "unreachable") {
			t.Errorf("%s, unreachable: exit %d, %q", cmd, code, errOut)
		}
		if code, _, errOut := flights(cmd, "--server", s.URL); code != exitUsage || !strings.Contains(errOut, "booking ID") {
			t.Errorf("%s without an ID: exit %d, %q", cmd, code, errOut)
		}
		if code, _, errOut := flights(cmd, "--server", s.URL, bookingID, "other"); code != exitUsage || !strings.Contains(errOut, `"other"`) {
			t.Errorf("%s with two IDs: exit %d, %q", cmd, code, errOut)
		}
	}
	if code, _, errOut := flights("booking", "--key", "k", bookingID); code != exitUsage || !strings.Contains(errOut, "-key") {
		t.Errorf("booking takes no --key: exit %d, %q", code, errOut)
	}
}

func TestSeats(t *testing.T) {
	s := startCanned(t)
	code, out, errOut := flights("seats", "--server", s.URL, "--alliance", "star", "--seller", "LY", "--flight", "LY001")
	if code != exitOK || out != "LY001 of LY (alliance star): 178 of 180 seats left, 2 booked\n" {
		t.Errorf("exit %d, %q %q", code, out, errOut)
	}
	if r := s.requests()[0]; r.query != "alliance=star&flight=LY001&seller=LY" {
		t.Errorf("query %q", r.query)
	}
	if code, _, errOut := flights("seats", "--server", s.URL, "--alliance", "star", "--seller", "LY", "--flight", "LY999"); code != exitUsage || !strings.Contains(errOut, "--flight: no flight LY999") {
		t.Errorf("unknown flight: exit %d, %q", code, errOut)
	}
	if code, _, errOut := flights("seats", "--server", s.URL, "--alliance", "star", "--seller", "LY"); code != exitUsage || !strings.Contains(errOut, "--flight") {
		t.Errorf("no --flight: exit %d, %q", code, errOut)
	}
	if code, _, _ := flights("seats", "--server", unreachable(t), "--alliance", "star", "--seller", "LY", "--flight", "LY001"); code != exitUnreliable {
		t.Errorf("unreachable: exit %d", code)
	}
}
