package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

// bookingFlights are the flights TestBookings books, each used by one scenario.
type bookingFlights struct {
	race, idem, bad, hold, holdConfirm, shown, cancel flight.Flight
	conn1, conn2                                      flight.Flight // a connection LY → UA
}

func pickBookingFlights(data map[string][]flight.Flight) (bookingFlights, map[flight.Key]int) {
	ly, ua := directFlights(data, "LY", 3), directFlights(data, "UA", 3)
	lh := directFlights(data, "LH", 1)
	f := bookingFlights{race: ly[0], idem: ly[1], bad: ly[2], hold: ua[0], holdConfirm: ua[1], shown: ua[2], cancel: lh[0]}
	var ok bool
	if f.conn1, f.conn2, ok = connection(data, "LY", "UA", append(ly, ua...)); !ok {
		panic("the generated data has no LY → UA connection")
	}
	seats := map[flight.Key]int{f.race.Key(): 5, f.idem.Key(): 10, f.hold.Key(): 3, f.holdConfirm.Key(): 3,
		f.cancel.Key(): 4, f.conn1.Key(): 5, f.conn2.Key(): 1}
	return f, seats
}

// TestBookings books through the search server on one alliance of three machines (LY, UA and LH
// on different machines): racers never oversell, a connection takes both seats or neither, a
// retried key books once, bad input changes nothing, searches show seats left, holds expire and
// confirm, cancelling gives seats back once.
func TestBookings(t *testing.T) {
	var f bookingFlights
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{},
		func(data map[string][]flight.Flight) map[flight.Key]int {
			var seats map[flight.Key]int
			f, seats = pickBookingFlights(data)
			return seats
		})
	refresh := func(x *flight.Flight) { *x = w.flight(*x) }
	for _, x := range []*flight.Flight{&f.race, &f.idem, &f.bad, &f.hold, &f.holdConfirm, &f.shown, &f.cancel, &f.conn1, &f.conn2} {
		refresh(x)
	}
	w.waitBookable(f.race, 90*time.Second)

	// Each scenario books its own flights; the world's helpers fail the scenario running.
	scenario := func(name string, run func(t *testing.T)) {
		t.Run(name, func(sub *testing.T) {
			w.t = sub
			defer func() { w.t = t }()
			run(sub)
		})
	}
	scenario("never oversold", func(t *testing.T) { w.testNeverOversold(t, f.race) })
	scenario("both legs or neither", func(t *testing.T) { w.testBothOrNeither(t, f.conn1, f.conn2) })
	scenario("idempotent retry", func(t *testing.T) { w.testIdempotentRetry(t, f.idem) })
	scenario("bad input changes nothing", func(t *testing.T) { w.testBadInput(t, f.bad) })
	scenario("search shows seats left", func(t *testing.T) { w.testSearchShowsSeats(t, f.shown) })
	scenario("cancel gives seats back once", func(t *testing.T) { w.testCancel(t, f.cancel) })
	scenario("holds expire or confirm", func(t *testing.T) { w.testHolds(t, f.hold, f.holdConfirm) })
}

// testNeverOversold: 8 racers for the last 3 seats of a flight get exactly 3 bookings.
func (w *bookingWorld) testNeverOversold(t *testing.T, f flight.Flight) {
	w.mustBook(newKey("pre"), oneLeg(f, f.Seats-3), 30*time.Second)
	const racers = 8
	answers := make([]restAnswer, racers)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range racers {
		done.Go(func() {
			start.Wait()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			answers[i] = w.api.bookUntilDefinite(ctx, newKey("racer"), oneLeg(f, 1))
		})
	}
	start.Done()
	done.Wait()
	won, lost := 0, 0
	for _, ans := range answers {
		switch ans.status {
		case http.StatusCreated:
			won++
		case http.StatusConflict:
			lost++
			if !mentions(ans, f.Number) || !regexp.MustCompile(`\b0\b`).MatchString(ans.message()) {
				t.Errorf("409 %q does not name the flight %s and the 0 seats left", ans.message(), f.Number)
			}
		default:
			t.Errorf("a racer was answered %v", ans)
		}
	}
	if won != 3 || lost != racers-3 {
		t.Fatalf("%d racers for the last 3 seats: %d booked, %d refused; want 3 and %d", racers, won, lost, racers-3)
	}
	if s := w.api.mustSeats(t, "star", refOf(f)); s.Booked != f.Seats || s.Left != 0 || s.Capacity != f.Seats {
		t.Fatalf("seats after the race: %+v, want all %d booked", s, f.Seats)
	}
	if got := w.etcdBooked(f); got != f.Seats {
		t.Fatalf("etcd counter of %s: %d, want %d", f.Number, got, f.Seats)
	}
}

// testBothOrNeither: a connection over two sellers races a single-leg booking for the last seat
// of its second leg; whoever loses, the first leg keeps exactly the seats of the winners.
func (w *bookingWorld) testBothOrNeither(t *testing.T, f1, f2 flight.Flight) {
	conn := bookRequest{Alliance: "star", Legs: []legRef{refOf(f1), refOf(f2)}, Seats: 1}
	var connAns, racerAns restAnswer
	var start, done sync.WaitGroup
	start.Add(1)
	done.Go(func() {
		start.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		connAns = w.api.bookUntilDefinite(ctx, newKey("conn"), conn)
	})
	done.Go(func() {
		start.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		racerAns = w.api.bookUntilDefinite(ctx, newKey("racer"), oneLeg(f2, 1))
	})
	start.Done()
	done.Wait()
	wantF1 := 0
	switch {
	case connAns.status == http.StatusCreated && racerAns.status == http.StatusConflict:
		wantF1 = 1
		b, _ := connAns.booking()
		if len(b.Legs) != 2 || b.Legs[0].Flight != f1.Number || b.Legs[1].Flight != f2.Number {
			t.Errorf("the connection's booking has legs %+v", b.Legs)
		}
		t.Logf("the connection won the last seat of %s", f2.Number)
	case connAns.status == http.StatusConflict && racerAns.status == http.StatusCreated:
		t.Logf("the single leg won the last seat of %s", f2.Number)
	default:
		t.Fatalf("one of the two must win the last seat: connection %v, single leg %v", connAns, racerAns)
	}
	if got := w.booked(f1); got != wantF1 {
		t.Fatalf("%s (first leg) has %d seats booked, want %d: a lost connection took a seat", f1.Number, got, wantF1)
	}
	if got := w.booked(f2); got != 1 {
		t.Fatalf("%s (second leg) has %d seats booked, want 1", f2.Number, got)
	}
	// Now the second leg is full for sure: the connection is refused naming it, the first leg
	// keeps its seats.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ans := w.api.bookUntilDefinite(ctx, newKey("conn"), conn)
	if ans.status != http.StatusConflict || !mentions(ans, f2.Number) {
		t.Fatalf("connection with %s full: %v, want 409 naming %s", f2.Number, ans, f2.Number)
	}
	if got := w.booked(f1); got != wantF1 {
		t.Fatalf("%s has %d seats booked after a refused connection, want %d", f1.Number, got, wantF1)
	}
}

// testIdempotentRetry: the same key books once, however often and however concurrently it is
// sent; another body with that key is refused with 422. The booking is in etcd under the keys
// API.md names.
func (w *bookingWorld) testIdempotentRetry(t *testing.T, f flight.Flight) {
	key := newKey("idem")
	req := oneLeg(f, 2)
	ids := make([]string, 5)
	statuses := make([]int, 5)
	var done sync.WaitGroup
	for i := range ids {
		done.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ans := w.api.bookUntilDefinite(ctx, key, req)
			b, err := ans.booking()
			if err != nil {
				t.Errorf("attempt %d: %v", i, err)
			}
			ids[i], statuses[i] = b.ID, ans.status
		})
	}
	done.Wait()
	created := 0
	for i := range ids {
		if ids[i] != ids[0] {
			t.Fatalf("one key, five concurrent attempts, different bookings: %v", ids)
		}
		if statuses[i] == http.StatusCreated {
			created++
		} else if statuses[i] != http.StatusOK {
			t.Fatalf("attempt %d answered %d", i, statuses[i])
		}
	}
	if created != 1 {
		t.Fatalf("%d attempts answered 201 Created, want exactly 1 (the others 200): %v", created, statuses)
	}
	again := w.mustBook(key, req, 30*time.Second)
	if again.ID != ids[0] || again.Status != "confirmed" || again.Seats != 2 {
		t.Fatalf("a later retry answered %+v, want booking %s", again, ids[0])
	}
	if got := w.booked(f); got != 2 {
		t.Fatalf("%s has %d seats booked after one booking of 2 retried, want 2", f.Number, got)
	}
	other := oneLeg(f, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if ans := w.api.bookUntilDefinite(ctx, key, other); ans.status != http.StatusUnprocessableEntity {
		t.Fatalf("the same key with another body: %v, want 422", ans)
	}
	if got := w.booked(f); got != 2 {
		t.Fatalf("%s has %d seats booked after a refused reuse of the key, want 2", f.Number, got)
	}

	// The system of record.
	var rec struct {
		ID     string `json:"id"`
		Seats  int    `json:"seats"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(w.etcdValue("bookings/"+ids[0])), &rec); err != nil || rec.ID != ids[0] || rec.Seats != 2 {
		t.Fatalf("etcd bookings/%s: %+v (%v)", ids[0], rec, err)
	}
	if got := w.etcdBooked(f); got != 2 {
		t.Fatalf("etcd seats/%s/%s = %d, want 2", f.Seller, f.Number, got)
	}
	sum := sha256.Sum256([]byte(key))
	if w.etcdValue("idempotency/"+hex.EncodeToString(sum[:])) == "" {
		t.Fatalf("no idempotency record at idempotency/<sha256 of the key>")
	}
}
