package search

import (
	"flightalliance/search/booking"

	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"flightalliance/soap"
)

// TestBookingRoutesFindTheAllianceFromTheID reads, cancels and confirms a booking: each goes to
// the alliance the ID names, with the optional Idempotency-Key as the request ID.
func TestBookingRoutesFindTheAllianceFromTheID(t *testing.T) {
	m := newMachine("m1")
	ts := startAlliance(t, Config{}, m)
	path := ts.URL + booking.Path + "/" + sampleBookingID
	for _, c := range []struct {
		method, path string
		header       map[string]string
		status       string
		call         string
	}{
		{"GET", path, map[string]string{booking.KeyHeader: "ignored"}, "confirmed", "getBooking " + sampleBookingID},
		{"DELETE", path, map[string]string{booking.KeyHeader: "c1"}, "cancelled", "cancel " + sampleBookingID + " c1"},
		{"DELETE", path, nil, "cancelled", "cancel " + sampleBookingID + " "},
		{"POST", path + "/confirm", map[string]string{booking.KeyHeader: "f1"}, "confirmed", "confirm " + sampleBookingID + " f1"},
	} {
		code, _, b := send(t, c.method, c.path, "", c.header)
		if code != http.StatusOK || bookingOf(t, b).Status != c.status {
			t.Errorf("%s %s: %d %s, want 200 %s", c.method, c.path, code, b, c.status)
		}
		if calls := m.called(); calls[len(calls)-1] != c.call {
			t.Errorf("%s %s: the alliance was asked %q, want %q", c.method, c.path, calls[len(calls)-1], c.call)
		}
	}
}

func TestBookingIDThatNamesNoKnownAllianceIs404(t *testing.T) {
	m := newMachine("m1")
	ts := startAlliance(t, Config{}, m)
	for _, id := range []string{
		"abcdefghijklmnopqrstuvwxyz", "sky.abcdefghijklmnopqrstuvwxyz", "star.short", "a.b.abcdefghijklmnopqrstuvwxyz",
		"star.ABCDEFGHIJKLMNOPQRSTUVWXYZ", "star..abcdefghijklmnopqrstuvwxyz",
	} {
		for _, method := range []string{"GET", "DELETE"} {
			code, _, b := send(t, method, ts.URL+booking.Path+"/"+id, "", nil)
			if msg := errorOf(t, b); code != http.StatusNotFound || !strings.HasPrefix(msg, "no booking") {
				t.Errorf("%s %s: %d %q, want 404 no booking", method, id, code, msg)
			}
		}
		code, _, b := send(t, "POST", ts.URL+booking.Path+"/"+id+"/confirm", "", nil)
		if msg := errorOf(t, b); code != http.StatusNotFound || !strings.HasPrefix(msg, "no booking") {
			t.Errorf("confirm %s: %d %q", id, code, msg)
		}
	}
	if calls := m.called(); len(calls) != 0 {
		t.Errorf("IDs of no known alliance reached it: %v", calls)
	}
	// A well-formed ID the alliance does not know: its not-found fault is the 404.
	code, _, b := send(t, "GET", ts.URL+booking.Path+"/star.zzzzzzzzzzzzzzzzzzzzzzzzzz", "", nil)
	if msg := errorOf(t, b); code != http.StatusNotFound || !strings.Contains(msg, "no booking") {
		t.Errorf("unknown booking: %d %q", code, msg)
	}
}

func TestConfirmAfterExpiryIs409WithTheReason(t *testing.T) {
	m1, m2 := newMachine("m1"), newMachine("m2")
	m1.booking = func(context.Context, string, string, string) (*soap.Booking, error) {
		return nil, soap.KindFault(soap.KindConflict, "booking %s expired at 2026-11-23T10:10:00Z", sampleBookingID)
	}
	ts := startAlliance(t, Config{}, m1, m2)
	code, _, b := send(t, "POST", ts.URL+booking.Path+"/"+sampleBookingID+"/confirm", "", nil)
	if msg := errorOf(t, b); code != http.StatusConflict || !strings.Contains(msg, "expired at") {
		t.Errorf("confirm an expired hold: %d %q", code, msg)
	}
	if len(m2.called()) != 0 {
		t.Errorf("the alternate was asked: %v", m2.called())
	}
}

func TestCancelFailsOverToTheAlternate(t *testing.T) {
	m1, m2 := newMachine("m1"), newMachine("m2")
	m1.booking = func(context.Context, string, string, string) (*soap.Booking, error) {
		return nil, soap.ServerFault("cancel failed on the server")
	}
	ts := startAlliance(t, Config{}, m1, m2)
	code, _, b := send(t, "DELETE", ts.URL+booking.Path+"/"+sampleBookingID, "", map[string]string{booking.KeyHeader: "c9"})
	if code != http.StatusOK || bookingOf(t, b).Status != "cancelled" {
		t.Errorf("cancel: %d %s", code, b)
	}
	if got := m2.called(); !slices.Equal(got, []string{"cancel " + sampleBookingID + " c9"}) {
		t.Errorf("alternate asked %q", got)
	}
}

func TestSeatsAnswersTheAlliancesCount(t *testing.T) {
	m := newMachine("m1")
	m.seats = func(_ context.Context, seller, flight string) (*soap.GetSeatsResponse, error) {
		if flight != "LY001" {
			return nil, soap.KindFault(soap.KindNotFound, "flight: no flight %s of seller %s", flight, seller)
		}
		return &soap.GetSeatsResponse{Seller: seller, Flight: flight, Capacity: 180, Booked: 7, Left: 173}, nil
	}
	ts := startAlliance(t, Config{}, m)
	code, b := do(t, "GET", ts.URL+"/Services/FlightsSearch/seats?alliance=star&seller=LY&flight=LY001", "")
	if want := `{"alliance":"star","seller":"LY","flight":"LY001","capacity":180,"booked":7,"left":173}` + "\n"; code != 200 || string(b) != want {
		t.Errorf("seats: %d %s, want %s", code, b, want)
	}
	code, b = do(t, "GET", ts.URL+"/Services/FlightsSearch/seats?alliance=star&seller=LY&flight=LY999", "")
	if msg := errorOf(t, b); code != http.StatusNotFound || !strings.Contains(msg, "LY999") {
		t.Errorf("unknown flight: %d %q", code, msg)
	}
	code, b = do(t, "GET", ts.URL+"/Services/FlightsSearch/seats?alliance=sky&seller=LY&flight=LY001", "")
	if msg := errorOf(t, b); code != http.StatusNotFound || !strings.Contains(msg, `"sky"`) {
		t.Errorf("unknown alliance: %d %q", code, msg)
	}
	if got := m.called(); !slices.Equal(got, []string{"getSeats star LY LY001", "getSeats star LY LY999"}) {
		t.Errorf("the delegate was asked %q, want each read naming the alliance", got)
	}
}

// A seats read names its alliance, so that another alliance's machine now at a registered address
// refuses it (other-alliance) rather than answer with its own count of a flight both alliances
// sell; the search server then asks the alliance's own machine.
func TestSeatsAnotherAlliancesMachineRefusesAreAskedOfTheNext(t *testing.T) {
	impostor, real := newMachine("m1"), newMachine("m2")
	impostor.seats = func(context.Context, string, string) (*soap.GetSeatsResponse, error) {
		return nil, soap.KindFault(soap.KindOtherAlliance, "Alliance: this is alliance oneworld, not star")
	}
	real.seats = func(_ context.Context, seller, flight string) (*soap.GetSeatsResponse, error) {
		return &soap.GetSeatsResponse{Seller: seller, Flight: flight, Capacity: 180, Booked: 7, Left: 173}, nil
	}
	ts := startAlliance(t, Config{}, impostor, real)
	code, b := do(t, "GET", ts.URL+"/Services/FlightsSearch/seats?alliance=star&seller=LY&flight=LY001", "")
	if want := `{"alliance":"star","seller":"LY","flight":"LY001","capacity":180,"booked":7,"left":173}` + "\n"; code != 200 || string(b) != want {
		t.Errorf("seats: %d %s, want the alliance's own machine's %s", code, b, want)
	}
	if got := real.called(); !slices.Equal(got, []string{"getSeats star LY LY001"}) {
		t.Errorf("the alliance's own machine was asked %q, want once", got)
	}
}
