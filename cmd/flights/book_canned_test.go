package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

const (
	bookingID = "star.abcdefghijklmnopqrstuvwxyz"
	expiredID = "star.zzzzzzzzzzzzzzzzzzzzzzzzzz"
)

// cannedBooking is a booking with the given status, as the search server renders it.
func cannedBooking(status string) string {
	return `{"id":"` + bookingID + `","alliance":"star","legs":[` +
		`{"flight":"LY007","seller":"LY","alliance":"star","src":"TLV","dst":"ATH","departure":"2026-12-01T06:00:00Z","arrival":"2026-12-01T08:00:00Z","price":"130.00","seats":178},` +
		`{"flight":"UA220","seller":"UA","alliance":"star","src":"ATH","dst":"JFK","departure":"2026-12-01T09:30:00Z","arrival":"2026-12-01T20:00:00Z","price":"300.00","seats":41}],` +
		`"seats":2,"price":"860.00","status":"` + status + `","created_at":"2026-11-23T10:00:00Z","expires_at":"2026-11-23T10:10:00Z"}`
}

// seen is one request the canned server got.
type seen struct {
	method, path, query, key, body string
}

// cannedServer is a search server that answers the booking routes with canned answers, chosen
// by the Idempotency-Key or the booking ID, and records every request.
type cannedServer struct {
	URL string
	mu  sync.Mutex
	got []seen
}

func startCanned(t *testing.T) *cannedServer {
	t.Helper()
	c := &cannedServer{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		key := r.Header.Get("Idempotency-Key")
		c.mu.Lock()
		c.got = append(c.got, seen{r.Method, r.URL.Path, r.URL.RawQuery, key, string(body)})
		c.mu.Unlock()
		reply := func(status int, body string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, body+"\n")
		}
		const bookings = "/Services/FlightsSearch/bookings"
		switch {
		case r.Method == "POST" && r.URL.Path == bookings:
			switch key {
			case "again":
				reply(200, cannedBooking("held"))
			case "full":
				reply(409, `{"error":"flight LY007 has 1 seat left, 2 asked"}`)
			case "bad":
				reply(400, `{"error":"legs[1].flight: seller UA has no flight UA220 on a connecting date"}`)
			case "down":
				reply(503, `{"error":"alliance star: the outcome is unknown: retry with the same Idempotency-Key"}`)
			case "junk":
				reply(201, `<html>`)
			default:
				reply(201, cannedBooking("held"))
			}
		case r.URL.Path == bookings+"/"+bookingID && r.Method == "GET":
			reply(200, cannedBooking("held"))
		case r.URL.Path == bookings+"/"+bookingID && r.Method == "DELETE":
			reply(200, cannedBooking("cancelled"))
		case r.URL.Path == bookings+"/"+bookingID+"/confirm" && r.Method == "POST":
			reply(200, cannedBooking("confirmed"))
		case r.URL.Path == bookings+"/"+expiredID+"/confirm" && r.Method == "POST":
			reply(409, `{"error":"booking `+expiredID+` expired at 2026-11-23T10:10:00Z"}`)
		case r.URL.Path == "/Services/FlightsSearch/seats" && r.URL.Query().Get("flight") == "LY001":
			reply(200, `{"alliance":"star","seller":"LY","flight":"LY001","capacity":180,"booked":2,"left":178}`)
		case r.URL.Path == "/Services/FlightsSearch/seats":
			reply(404, `{"error":"flight: no flight LY999 of seller LY"}`)
		default:
			reply(404, `{"error":"no booking `+strings.TrimPrefix(r.URL.Path, bookings+"/")+`"}`)
		}
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

// requests returns what the server got, in order.
func (c *cannedServer) requests() []seen {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]seen(nil), c.got...)
}

// unreachable is the URL of a server that is gone.
func unreachable(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}
