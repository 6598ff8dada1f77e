package integration

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
)

// testBadInput: every malformed request is refused naming what is wrong, and books nothing.
func (w *bookingWorld) testBadInput(t *testing.T, f flight.Flight) {
	var other flight.Flight // a flight of the same day that does not leave from f's arrival airport
	for _, g := range w.a.data[f.Seller] {
		if flight.DateOf(g.Departure) == testDate && g.Src != f.Dst && g.Key() != f.Key() {
			other = g
			break
		}
	}
	before, bookings := w.booked(f), w.etcdCount("bookings")
	leg := fmt.Sprintf(`{"seller":%q,"flight":%q}`, f.Seller, f.Number)
	for _, c := range []struct {
		name, key, body string
		status          int
		names           string // a word the error must contain
	}{
		{"no idempotency key", "", `{"alliance":"star","legs":[` + leg + `],"seats":1}`, 400, "idempotency-key"},
		{"key too long", strings.Repeat("k", 129), `{"alliance":"star","legs":[` + leg + `],"seats":1}`, 400, "idempotency-key"},
		{"not JSON", "k", `{"alliance":`, 400, ""},
		{"no alliance", "k", `{"legs":[` + leg + `],"seats":1}`, 400, "alliance"},
		{"no legs", "k", `{"alliance":"star","legs":[],"seats":1}`, 400, "legs"},
		{"three legs", "k", `{"alliance":"star","legs":[` + leg + `,` + leg + `,` + leg + `],"seats":1}`, 400, "legs"},
		{"bad seller", "k", `{"alliance":"star","legs":[{"seller":"l","flight":"LY1"}],"seats":1}`, 400, "seller"},
		{"no flight", "k", `{"alliance":"star","legs":[{"seller":"LY"}],"seats":1}`, 400, "flight"},
		{"zero seats", "k", `{"alliance":"star","legs":[` + leg + `],"seats":0}`, 400, "seats"},
		{"negative seats", "k", `{"alliance":"star","legs":[` + leg + `],"seats":-2}`, 400, "seats"},
		{"seats not a number", "k", `{"alliance":"star","legs":[` + leg + `],"seats":"two"}`, 400, "seats"},
		{"hold not a duration", "k", `{"alliance":"star","legs":[` + leg + `],"seats":1,"hold":"soon"}`, 400, "hold"},
		{"hold too short", "k", `{"alliance":"star","legs":[` + leg + `],"seats":1,"hold":"10ms"}`, 400, "hold"},
		{"hold too long", "k", `{"alliance":"star","legs":[` + leg + `],"seats":1,"hold":"48h"}`, 400, "hold"},
		{"legs that are no trip", "k", fmt.Sprintf(`{"alliance":"star","legs":[%s,{"seller":%q,"flight":%q}],"seats":1}`,
			leg, other.Seller, other.Number), 400, "legs"},
		{"unknown alliance", "k", `{"alliance":"nosuch","legs":[` + leg + `],"seats":1}`, 404, "nosuch"},
		{"unknown seller", "k", `{"alliance":"star","legs":[{"seller":"ZZ","flight":"ZZ1"}],"seats":1}`, 404, "ZZ"},
		{"unknown flight", "k", `{"alliance":"star","legs":[{"seller":"LY","flight":"LY99999"}],"seats":1}`, 404, "LY99999"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		key := c.key
		if key == "k" {
			key = newKey("bad")
		}
		var ans restAnswer
		for ans = w.api.bookRaw(ctx, key, []byte(c.body)); !ans.definite() && ctx.Err() == nil; ans = w.api.bookRaw(ctx, key, []byte(c.body)) {
			time.Sleep(200 * time.Millisecond)
		}
		cancel()
		if ans.status != c.status || ans.message() == "" || !mentions(ans, c.names) {
			t.Errorf("%s: %v, want %d with an error naming %q", c.name, ans, c.status, c.names)
		}
	}
	if got := w.booked(f); got != before {
		t.Errorf("%s had %d seats booked, %d after the bad requests", f.Number, before, got)
	}
	if got := w.etcdCount("bookings"); got != bookings {
		t.Errorf("%d bookings in etcd before the bad requests, %d after", bookings, got)
	}
	// Unknown and malformed booking IDs are 404, for every route.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, id := range []string{"star.aaaaaaaaaaaaaaaaaaaaaaaaaa", "nonsense", "nosuch.aaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		for name, ans := range map[string]restAnswer{"GET": w.api.get(ctx, id), "DELETE": w.api.cancel(ctx, id), "confirm": w.api.confirm(ctx, id)} {
			if ans.status != http.StatusNotFound {
				t.Errorf("%s of booking %q: %v, want 404", name, id, ans)
			}
		}
	}
}

// testSearchShowsSeats: a search shows a booking's seats as taken, and a cancellation's as free
// again, within the contract's second (the deadline leaves room for the search itself).
func (w *bookingWorld) testSearchShowsSeats(t *testing.T, f flight.Flight) {
	w.waitSearchSeats(f, f.Seats, 10*time.Second)
	b := w.mustBook(newKey("shown"), oneLeg(f, 2), 30*time.Second)
	if len(b.Legs) != 1 || b.Legs[0].Flight != f.Number || b.Legs[0].Seats != f.Seats-2 {
		t.Errorf("the booking's leg %+v does not show %d seats left", b.Legs, f.Seats-2)
	}
	if want := (2 * f.Price).String(); b.Price != want {
		t.Errorf("price of 2 seats of a %s flight: %s, want %s", f.Price, b.Price, want)
	}
	if _, err := time.Parse(time.RFC3339, b.CreatedAt); err != nil || b.ExpiresAt != "" {
		t.Errorf("created_at %q (%v), expires_at %q on a confirmed booking", b.CreatedAt, err, b.ExpiresAt)
	}
	took := w.waitSearchSeats(f, f.Seats-2, 3*time.Second)
	t.Logf("a search showed the booking's seats taken %v after its acknowledgment", took)
	w.mustCancel(b.ID)
	took = w.waitSearchSeats(f, f.Seats, 3*time.Second)
	t.Logf("a search showed the seats free again %v after the cancellation", took)
}

// testCancel: cancelling gives the seats back; cancelling again answers the same and gives
// nothing back twice.
func (w *bookingWorld) testCancel(t *testing.T, f flight.Flight) {
	keep := w.mustBook(newKey("keep"), oneLeg(f, 1), 30*time.Second)
	b := w.mustBook(newKey("cancel"), oneLeg(f, 3), 30*time.Second)
	if got := w.booked(f); got != 4 {
		t.Fatalf("%d seats booked, want 4", got)
	}
	first := w.mustCancel(b.ID)
	second := w.mustCancel(b.ID)
	if first.ID != b.ID || second.ID != b.ID || first.Seats != 3 {
		t.Fatalf("cancel answered %+v, then %+v", first, second)
	}
	if got := w.booked(f); got != 1 {
		t.Fatalf("%d seats booked after cancelling 3 of 4 (twice), want 1", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for id, status := range map[string]string{b.ID: "cancelled", keep.ID: "confirmed"} {
		got, err := w.api.get(ctx, id).booking()
		if err != nil || got.Status != status {
			t.Fatalf("GET %s: %+v (%v), want %s", id, got, err, status)
		}
	}
	if ans := w.api.confirm(ctx, b.ID); ans.status != http.StatusConflict || !mentions(ans, "cancel") {
		t.Fatalf("confirming a cancelled booking: %v, want 409 saying it is cancelled", ans)
	}
}

// testHolds: a hold takes seats until it expires, then gives them back by itself, once, and reads
// "expired"; a hold confirmed in time stays; confirming after expiry is refused.
func (w *bookingWorld) testHolds(t *testing.T, f, g flight.Flight) {
	w.mustBook(newKey("confirmed"), oneLeg(f, 1), 30*time.Second)
	hold := w.mustBook(newKey("hold"), bookRequest{Alliance: "star", Legs: []legRef{refOf(f)}, Seats: 2, Hold: "2s"}, 30*time.Second)
	created, _ := time.Parse(time.RFC3339, hold.CreatedAt)
	expires, err := time.Parse(time.RFC3339, hold.ExpiresAt)
	if hold.Status != "held" || err != nil || expires.Sub(created) < time.Second || expires.Sub(created) > 3*time.Second {
		t.Fatalf("a 2s hold: status %q, created %q, expires %q", hold.Status, hold.CreatedAt, hold.ExpiresAt)
	}
	if w.etcdValue("holds/"+hold.ID) == "" {
		t.Errorf("no holds/%s key in etcd while the hold is on", hold.ID)
	}
	if got := w.booked(f); got != 3 {
		t.Fatalf("%d seats booked with a confirmed seat and a hold of 2, want 3", got)
	}
	took := w.waitExpired(t, hold.ID)
	t.Logf("the hold read expired %v after it was acknowledged", took)
	// Its seats came back once: until well after the expiry, exactly the confirmed seat stays.
	for time.Now().Before(expires.Add(3 * time.Second)) {
		if got := w.booked(f); got != 1 {
			t.Fatalf("%d seats booked after the hold of 2 expired, want 1 (the confirmed one)", got)
		}
		time.Sleep(200 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if ans := w.api.confirm(ctx, hold.ID); ans.status != http.StatusConflict || !mentions(ans, "expire") {
		t.Fatalf("confirming an expired hold: %v, want 409 saying it expired", ans)
	}

	held := w.mustBook(newKey("hold"), bookRequest{Alliance: "star", Legs: []legRef{refOf(g)}, Seats: 3, Hold: "1m"}, 30*time.Second)
	for range 2 { // confirming again answers the same
		ans := w.api.confirm(ctx, held.ID)
		b, err := ans.booking()
		if err != nil || ans.status != http.StatusOK || b.Status != "confirmed" || b.ID != held.ID {
			t.Fatalf("confirming a hold in time: %v", ans)
		}
	}
	if got := w.booked(g); got != 3 {
		t.Fatalf("%d seats booked on %s after confirming a hold of 3, want 3", got, g.Number)
	}
	if ans := w.api.book(ctx, newKey("full"), oneLeg(g, 1)); ans.status != http.StatusConflict {
		t.Fatalf("booking a flight full of confirmed seats: %v, want 409", ans)
	}
}
