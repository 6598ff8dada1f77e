package integration

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/soap"
	"flightalliance/tests/framework"
)

// TestBookingsSurviveCrashes: acknowledged bookings survive kill -9 of the seller's primary and
// of the delegate (a retry with the same key answers the same booking, even for a request cut off
// by the kill), a machine restarted with its original CSV (searches still show the seats as
// taken), and the whole alliance killed and restarted with the same command lines.
func TestBookingsSurviveCrashes(t *testing.T) {
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{}, nil)
	w.a.waitSettled(90 * time.Second)
	delegate := w.a.delegate()
	// A seller whose primary is not the delegate, so that the two kills hit different machines.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	st, err := w.a.readTree(ctx)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	var seller, primary string
	for _, s := range w.a.sellers() {
		for m, role := range st.holders[s] {
			if role == "PRIMARY" && m != delegate && seller == "" {
				seller, primary = s, m
			}
		}
	}
	if seller == "" {
		t.Fatalf("every seller's primary is the delegate %s: %+v", delegate, st.holders)
	}
	f := directFlights(w.a.data, seller, 1)[0]
	w.waitBookable(f, 60*time.Second)
	t.Logf("booking %s %s (capacity %d): primary %s, delegate %s", f.Seller, f.Number, f.Seats, primary, delegate)

	type acked struct {
		id    string
		seats int
	}
	bookings := map[string]acked{} // idempotency key → its booking
	book := func(key string, seats int) {
		t.Helper()
		b := w.mustBook(key, oneLeg(f, seats), 60*time.Second)
		if prev, seen := bookings[key]; seen && prev.id != b.ID {
			t.Fatalf("key %s booked %s, and now answers %s", key, prev.id, b.ID)
		}
		bookings[key] = acked{b.ID, seats}
	}
	wantBooked := 0
	// checkAll retries every acknowledged key (each must answer its booking), reads every booking
	// and the seats booked, and waits for searches to show them.
	checkAll := func(when string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for key, b := range bookings {
			book(key, b.seats)
			ans := w.api.get(ctx, b.id)
			for ; !ans.definite() && ctx.Err() == nil; ans = w.api.get(ctx, b.id) {
				time.Sleep(200 * time.Millisecond)
			}
			if got, err := ans.booking(); err != nil || ans.status != http.StatusOK || got.Status != "confirmed" {
				t.Fatalf("%s: GET %s (key %s): %v", when, b.id, key, ans)
			}
		}
		if got := w.booked(f); got != wantBooked {
			t.Fatalf("%s: %d seats booked on %s, want %d (a booking lost or doubled)", when, got, f.Number, wantBooked)
		}
		took := w.waitSearchSeats(f, f.Seats-wantBooked, 10*time.Second)
		t.Logf("%s: %d bookings answer the same, %d seats booked, searches show them taken (after %v)",
			when, len(bookings), wantBooked, took)
	}

	book("k1", 2)
	wantBooked += 2

	// kill -9 of the seller's primary; a machine restarted with its original CSV.
	w.a.kill(primary)
	book("k2", 1)
	wantBooked++
	checkAll("with the primary " + primary + " dead")
	w.a.restart(primary)
	w.a.waitSettled(90 * time.Second)
	checkAll(primary + " restarted with its original CSV")
	w.waitMachinesShow(f, f.Seats-wantBooked, 10*time.Second)

	// kill -9 of the delegate while a booking is on its way to it (it is paused when the booking
	// is sent): the same key until a definite answer books once, whatever the cut-off request did.
	// A hold that expires while the delegate is dead is released by another machine, once.
	hold := w.mustBook("h1", bookRequest{Alliance: "star", Legs: []legRef{refOf(f)}, Seats: 2, Hold: "2s"}, 30*time.Second)
	w.a.pause(delegate)
	cut := make(chan restAnswer, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cut <- w.api.book(ctx, "k3", oneLeg(f, 1))
	}()
	time.Sleep(200 * time.Millisecond) // the pause's duration: the booking reaches the delegate
	w.a.kill(delegate)
	w.a.resume(delegate) // no signal reaches the dead process; the machine is not paused any more
	t.Logf("the booking cut off by the kill of %s was answered %v", delegate, <-cut)
	book("k3", 1)
	wantBooked++
	took := framework.Eventually(t, 20*time.Second, "the hold expired without the delegate", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b, err := w.api.get(ctx, hold.ID).booking()
		if err != nil || b.Status != "expired" {
			return fmt.Errorf("hold %s: %+v %v", hold.ID, b.Status, err)
		}
		return nil
	})
	t.Logf("the hold read expired %v after the delegate's death", took)
	checkAll("with the delegate " + delegate + " dead")
	w.a.restart(delegate)
	w.a.waitSettled(90 * time.Second)

	// The whole alliance killed and restarted with the same command lines.
	for _, n := range w.a.order {
		w.a.kill(n)
	}
	for _, n := range w.a.order {
		w.a.restart(n)
	}
	w.waitBookable(f, 120*time.Second)
	checkAll("after restarting every machine")
	// It still books and cancels.
	w.mustCancel(bookings["k1"].id)
	wantBooked -= 2
	book("k4", 3)
	wantBooked += 3
	if got := w.booked(f); got != wantBooked {
		t.Fatalf("%d seats booked after cancelling k1 and booking k4, want %d", got, wantBooked)
	}
}

// waitMachinesShow waits until every live machine, asked getTrips itself, shows want seats left
// on f: a machine restarted with its CSV must have read the seats booked meanwhile.
func (w *bookingWorld) waitMachinesShow(f flight.Flight, want int, timeout time.Duration) {
	w.t.Helper()
	q := query{src: f.Src, dst: f.Dst, date: testDate, sellers: []string{f.Seller}}
	took := framework.Eventually(w.t, timeout, fmt.Sprintf("every machine shows %d seats left on %s", want, f.Number), func() error {
		for _, m := range w.a.live() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			resp, err := w.a.getTrips(ctx, m, q)
			cancel()
			if err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
			i := slices.IndexFunc(resp.Trips, func(tr soap.Trip) bool { return len(tr.Legs) == 1 && tr.Legs[0].Flight == f.Number })
			if i < 0 {
				return fmt.Errorf("%s does not list %s", m, f.Number)
			}
			if got := resp.Trips[i].Legs[0].Seats; got != want {
				return fmt.Errorf("%s shows %d seats left on %s, want %d", m, got, f.Number, want)
			}
		}
		return nil
	})
	w.t.Logf("every machine's getTrips showed %d seats left on %s (after %v)", want, f.Number, took)
}
