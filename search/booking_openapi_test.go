package search

import (
	"flightalliance/search/booking"

	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"flightalliance/soap"
)

// TestBookingAnswersMatchTheOpenAPIDocument checks every booking route's answers, good and bad,
// against the document the server serves.
func TestBookingAnswersMatchTheOpenAPIDocument(t *testing.T) {
	m1, m2 := newMachine("m1"), newMachine("m2")
	m1.reserve = func(_ context.Context, req soap.ReserveRequest) (*soap.ReserveResponse, error) {
		switch req.RequestID {
		case "conflict":
			return nil, soap.KindFault(soap.KindConflict, "flight LY007 has 1 seat left")
		case "reused":
			return nil, soap.KindFault(soap.KindKeyReused, "Idempotency-Key reused was used for another request")
		case "down":
			return nil, soap.KindFault(soap.KindUnavailable, "no quorum")
		case "bad":
			b := wireBooking()
			b.Price = "cheap"
			return &soap.ReserveResponse{Booking: b}, nil
		}
		b := wireBooking()
		b.Status, b.ExpiresAt = soap.StatusHeld, "2026-11-23T10:10:00Z"
		return &soap.ReserveResponse{Booking: b, Created: req.RequestID == "new"}, nil
	}
	m2.reserve = func(ctx context.Context, req soap.ReserveRequest) (*soap.ReserveResponse, error) {
		if req.RequestID == "down" { // the whole alliance is without quorum
			return nil, soap.KindFault(soap.KindUnavailable, "no quorum")
		}
		return m1.reserve(ctx, req)
	}
	m2.booking = m1.booking
	m1.booking = func(ctx context.Context, op, id, key string) (*soap.Booking, error) {
		if op == soap.OpConfirm && key == "late" {
			return nil, soap.KindFault(soap.KindConflict, "booking %s expired", id)
		}
		return m2.booking(ctx, op, id, key)
	}
	ts := startAlliance(t, Config{}, m1, m2)
	check := openAPIChecker(t, ts.URL)
	const one = `{"alliance":"star","legs":[{"seller":"LY","flight":"LY007"},{"seller":"UA","flight":"UA220"}],"seats":2,"hold":"10m"}`
	id := booking.Path + "/" + sampleBookingID

	check("POST", booking.Path, one, 201, booking.KeyHeader, "new")
	check("POST", booking.Path, one, 200, booking.KeyHeader, "again")
	check("POST", booking.Path, one, 400)
	check("POST", booking.Path, `{"alliance":"star","legs":[],"seats":2}`, 400, booking.KeyHeader, "k")
	check("POST", booking.Path, strings.Replace(one, "star", "sky", 1), 404, booking.KeyHeader, "k")
	check("POST", booking.Path, one, 409, booking.KeyHeader, "conflict")
	check("POST", booking.Path, `{"alliance":"`+strings.Repeat("a", 70000)+`"}`, 413, booking.KeyHeader, "k")
	check("POST", booking.Path, one, 422, booking.KeyHeader, "reused")
	check("POST", booking.Path, one, 502, booking.KeyHeader, "bad")
	check("POST", booking.Path, one, 503, booking.KeyHeader, "down")
	check("GET", id, "", 200)
	check("GET", id+"?x=1", "", 400)
	check("GET", booking.Path+"/nonsense", "", 404)
	check("DELETE", id, "", 200, booking.KeyHeader, "c")
	check("DELETE", id, "", 400, booking.KeyHeader, strings.Repeat("k", 200))
	check("DELETE", booking.Path+"/sky.abcdefghijklmnopqrstuvwxyz", "", 404)
	check("POST", id+"/confirm", "", 200)
	check("POST", id+"/confirm", "", 409, booking.KeyHeader, "late")
	check("POST", booking.Path+"/star.zzzzzzzzzzzzzzzzzzzzzzzzzz/confirm", "", 404)
	check("GET", "/Services/FlightsSearch/seats?alliance=star&seller=LY&flight=LY001", "", 200)
	check("GET", "/Services/FlightsSearch/seats?alliance=star&seller=LY", "", 400)
	check("GET", "/Services/FlightsSearch/seats?alliance=sky&seller=LY&flight=LY001", "", 404)
}

// TestEveryRouteIsDocumented walks the server's router: every route but the operator's
// (/metrics, the document itself, an alias) is a path and method of the OpenAPI document.
func TestEveryRouteIsDocumented(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	s := startSearch(t, Config{})
	routes, ok := s.Handler().(chi.Routes)
	if !ok {
		t.Fatalf("the handler is a %T, not a chi router", s.Handler())
	}
	undocumented := map[string]bool{"/metrics": true, "/openapi.json": true, "/Services/FlightsSearchReg": true}
	n := 0
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if undocumented[route] {
			return nil
		}
		n++
		if _, ok := doc.Paths[route][strings.ToLower(method)]; !ok {
			t.Errorf("%s %s is not in openapi.json", method, route)
		}
		return nil
	})
	if err != nil || n < 10 {
		t.Errorf("walked %d routes: %v", n, err)
	}
}
