package ledger

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// fakeFlights is the alliance's data as a test gives it: one map of flights, and sellers whose
// holders do not answer.
type fakeFlights struct {
	flights map[flight.Key]flight.Flight
	silent  map[string]bool
}

func (f fakeFlights) Sellers() []string { return []string{"LY", "UA"} }

func (f fakeFlights) Flights(_ context.Context, seller string, numbers []string) (map[string]flight.Flight, error) {
	if f.silent[seller] {
		return nil, refuse(Unavailable, "no machine holding seller %s answered", seller)
	}
	found := map[string]flight.Flight{}
	for _, n := range numbers {
		if fl, ok := f.flights[flight.Key{Seller: seller, Number: n}]; ok {
			found[n] = fl
		}
	}
	return found, nil
}

// TestServiceRefusesNamingTheField: every refusal happens before the ledger is touched, says
// why with the field it is about, and books nothing; a good request then books.
func TestServiceRefusesNamingTheField(t *testing.T) {
	l := testLedger(t)
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	ly := testFlight("LY001", 5, dep, "TLV", "FRA")
	ua := testFlight("UA123", 5, dep.Add(30*time.Minute), "FRA", "JFK") // too short a connection
	flights := fakeFlights{flights: map[flight.Key]flight.Flight{ly.Key(): ly, ua.Key(): ua}, silent: map[string]bool{}}
	ready := false
	s := NewService(l, "star", time.Hour, flights, NewHolds("star", time.Now), func() bool { return ready })
	ctx := ctxFor(t)
	one := func(seller, number string) booking.Request {
		return booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: seller, Flight: number}}, Seats: 1, Key: "k-" + number}
	}
	refused := func(what string, err error, reason Reason, field string) {
		t.Helper()
		var r *RefusedError
		if !errors.As(err, &r) || r.Reason != reason || !strings.Contains(r.Msg, field) {
			t.Errorf("%s: %v, want a refusal (%d) naming %s", what, err, reason, field)
		}
	}
	_, err := s.Reserve(ctx, one("LY", "LY001"))
	refused("not ready", err, Unavailable, "not ready")
	// Bad in itself: refused naming the field by a machine not ready as by any other.
	var notReady *booking.FieldError
	if _, err = s.Reserve(ctx, booking.Request{Alliance: "star", Legs: one("LY", "LY001").Legs, Seats: 0, Key: "z"}); !errors.As(err, &notReady) || !strings.Contains(err.Error(), "seats") {
		t.Errorf("no seats, not ready: %v, want a field error naming seats", err)
	}
	_, err = s.Reserve(ctx, booking.Request{Alliance: "oneworld", Legs: one("LY", "LY001").Legs, Seats: 1, Key: "x"})
	refused("another alliance, not ready", err, OtherAlliance, "alliance")
	_, err = s.Seats(ctx, "", "LY", "LY001")
	refused("seats, not ready", err, Unavailable, "not ready")
	ready = true

	_, err = s.Reserve(ctx, booking.Request{Alliance: "oneworld", Legs: one("LY", "LY001").Legs, Seats: 1, Key: "x"})
	refused("another alliance", err, OtherAlliance, "alliance")
	_, err = s.Reserve(ctx, one("BA", "BA001"))
	refused("unknown seller", err, NotFound, "legs[0].seller")
	_, err = s.Reserve(ctx, one("LY", "LY999"))
	refused("unknown flight", err, NotFound, "legs[0].flight")
	flights.silent["UA"] = true
	_, err = s.Reserve(ctx, one("UA", "UA123"))
	refused("silent holders", err, Unavailable, "UA")
	flights.silent["UA"] = false
	var field *booking.FieldError
	if _, err = s.Reserve(ctx, booking.Request{Alliance: "star", Legs: one("LY", "LY001").Legs, Seats: 1}); !errors.As(err, &field) {
		t.Errorf("no idempotency key: %v, want a field error", err)
	}
	trip := booking.Request{Alliance: "star", Seats: 1, Key: "trip",
		Legs: []booking.LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "UA", Flight: "UA123"}}}
	if _, err = s.Reserve(ctx, trip); !errors.As(err, &field) {
		t.Errorf("a connection too short: %v, want a field error", err)
	}
	_, err = s.Seats(ctx, "oneworld", "LY", "LY001")
	refused("seats of another alliance", err, OtherAlliance, "Alliance")
	if n, err := s.Seats(ctx, "star", "LY", "LY001"); err != nil || n.Capacity != 5 {
		t.Errorf("seats naming this alliance: %+v %v", n, err)
	}
	_, err = s.Seats(ctx, "", "ly", "LY001")
	refused("bad seller code", err, BadRequest, "Seller")
	_, err = s.Seats(ctx, "", "LY", "")
	refused("bad flight number", err, BadRequest, "Flight")
	_, err = s.Get(ctx, "")
	refused("no booking ID", err, BadRequest, "BookingID")
	_, err = s.Cancel(ctx, "oneworld.aaaaaaaaaaaaaaaaaaaaaaaaaa")
	refused("a booking of another alliance", err, OtherAlliance, "BookingID")
	_, err = s.Get(ctx, "not-an-id")
	refused("not a booking ID at all", err, NotFound, "BookingID")
	if n, err := s.Seats(ctx, "", "LY", "LY001"); err != nil || n != (SeatCount{Capacity: 5, Booked: 0, Left: 5}) {
		t.Fatalf("after the refusals: %+v %v, want 5 seats, none booked", n, err)
	}

	res, err := s.Reserve(ctx, one("LY", "LY001"))
	if err != nil || !res.Created || res.Booked[ly.Key()] != 1 {
		t.Fatalf("a good request: %+v %v", res, err)
	}
	if got, err := s.Get(ctx, res.Record.ID); err != nil || got.ID != res.Record.ID {
		t.Errorf("get: %+v %v", got, err)
	}
	if got, err := s.Cancel(ctx, res.Record.ID); err != nil || got.Status != booking.Cancelled {
		t.Errorf("cancel: %+v %v", got, err)
	}
	if n, err := s.Seats(ctx, "", "LY", "LY001"); err != nil || n.Left != 5 {
		t.Errorf("after cancelling: %+v %v", n, err)
	}
}

// meetingFlights is the alliance's data behind holders that answer only once want lookups are
// under way at the same time — lookups made one after the other wait for their deadline and fail
// — and that note each lookup: "<seller> <numbers>".
type meetingFlights struct {
	fakeFlights
	want  int
	mu    sync.Mutex
	asked []string
	met   chan struct{}
}

func (m *meetingFlights) Flights(ctx context.Context, seller string, numbers []string) (map[string]flight.Flight, error) {
	m.mu.Lock()
	m.asked = append(m.asked, seller+" "+strings.Join(numbers, ","))
	if len(m.asked) == m.want {
		close(m.met)
	}
	m.mu.Unlock()
	select {
	case <-m.met:
		return m.fakeFlights.Flights(ctx, seller, numbers)
	case <-ctx.Done():
		return nil, refuse(Unavailable, "the lookups of seller %s and the others did not meet", seller)
	}
}

// TestServiceAsksEachSellerOnceAtOnce: a connection of two sellers asks both at the same time,
// and a connection of one seller asks it once for both flights.
func TestServiceAsksEachSellerOnceAtOnce(t *testing.T) {
	l := testLedger(t)
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	ly1, ly2 := testFlight("LY001", 5, dep, "TLV", "FRA"), testFlight("LY002", 5, dep.Add(3*time.Hour), "FRA", "JFK")
	ua := testFlight("UA123", 5, dep.Add(3*time.Hour), "FRA", "JFK")
	data := fakeFlights{flights: map[flight.Key]flight.Flight{ly1.Key(): ly1, ly2.Key(): ly2, ua.Key(): ua}}
	for _, c := range []struct {
		name  string
		legs  []booking.LegRef
		asked []string
	}{
		{"two sellers", []booking.LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "UA", Flight: "UA123"}}, []string{"LY LY001", "UA UA123"}},
		{"one seller", []booking.LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "LY", Flight: "LY002"}}, []string{"LY LY001,LY002"}},
	} {
		flights := &meetingFlights{fakeFlights: data, want: len(c.asked), met: make(chan struct{})}
		s := NewService(l, "star", time.Hour, flights, NewHolds("star", time.Now), func() bool { return true })
		res, err := s.Reserve(ctxFor(t), booking.Request{Alliance: "star", Legs: c.legs, Seats: 1, Key: c.name})
		if err != nil || !res.Created {
			t.Fatalf("%s: %+v %v", c.name, res, err)
		}
		if slices.Sort(flights.asked); !slices.Equal(flights.asked, c.asked) {
			t.Errorf("%s: asked %q, want %q", c.name, flights.asked, c.asked)
		}
	}
}
