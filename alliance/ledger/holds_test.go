package ledger

import (
	"context"
	"errors"
	"testing"
	"time"

	"flightalliance/alliance/booking"
	"flightalliance/coord"
)

// TestHoldsDueOnTheirOwnClock: a hold this machine saw made falls due its length after it was
// seen, whatever expires_at says (the clock of the machine that made it); one found open (at
// start, or by a resync) falls due at expires_at; a resync keeps when a known hold was seen;
// an entry of the older form (the expiry alone) and an unreadable one are read.
func TestHoldsDueOnTheirOwnClock(t *testing.T) {
	seenAt := t0.Add(time.Hour) // this machine's clock runs an hour ahead of the maker's
	h := NewHolds("star", func() time.Time { return seenAt })
	entry := func(expires time.Time, length time.Duration) []byte {
		return []byte(holdValue(booking.Record{ExpiresAt: expires}, length))
	}
	h.mirror.Apply(coord.Event{Type: coord.EventResync, Children: []coord.Child{
		{Name: "star.found", Value: entry(t0.Add(time.Minute), time.Minute)},
		{Name: "star.old", Value: []byte(t0.Add(2 * time.Minute).Format(time.RFC3339Nano))},
		{Name: "star.junk", Value: []byte("not a hold")},
	}})
	h.mirror.Apply(coord.Event{Type: coord.EventCreated, Name: "star.made", Value: entry(t0.Add(10*time.Minute), 10*time.Minute)})
	want := map[string]time.Time{
		"star.found": t0.Add(time.Minute),
		"star.old":   t0.Add(2 * time.Minute),
		"star.junk":  {},
		"star.made":  seenAt.Add(10 * time.Minute),
	}
	check := func(when string) {
		t.Helper()
		due, _ := h.snapshot()
		if len(due) != len(want) {
			t.Errorf("%s: %d open holds, want %d", when, len(due), len(want))
		}
		for id, at := range want {
			if !due[id].Equal(at) {
				t.Errorf("%s: %s due %s, want %s", when, id, due[id], at)
			}
		}
	}
	check("after a resync and a creation")
	seenAt = seenAt.Add(time.Hour)
	h.mirror.Apply(coord.Event{Type: coord.EventResync, Children: []coord.Child{
		{Name: "star.made", Value: entry(t0.Add(10*time.Minute), 10*time.Minute)},
		{Name: "star.found", Value: entry(t0.Add(time.Minute), time.Minute)},
	}})
	delete(want, "star.old")
	delete(want, "star.junk")
	check("after a second resync")

	made := booking.Record{ID: "star.made", Status: booking.Held, ExpiresAt: t0.Add(10 * time.Minute)}
	if h.Expired(made, t0.Add(time.Hour+5*time.Minute)) {
		t.Error("star.made expired by its expires_at, though this machine saw it made an hour later")
	}
	if !h.Expired(made, t0.Add(time.Hour+10*time.Minute)) {
		t.Error("star.made not expired its length after this machine saw it")
	}
	unknown := booking.Record{ID: "star.unknown", Status: booking.Held, ExpiresAt: t0}
	if h.Expired(unknown, t0.Add(-time.Second)) || !h.Expired(unknown, t0) {
		t.Error("a hold this machine has no entry of is not due at its expires_at")
	}
	if confirmed := (booking.Record{ID: "star.made", Status: booking.Confirmed}); h.Expired(confirmed, t0.Add(24*time.Hour)) {
		t.Error("a confirmed booking expired")
	}
}

// TestHoldsOfAMachineWhoseClockRunsAhead: machine B's wall clock runs 90 s ahead of machine
// A's. A makes a 2-second hold; B, which watched it made, neither releases it early nor refuses
// its confirmation — before, B compared expires_at (A's clock) with its own and did both at
// once. A second hold, not confirmed, B releases once the hold's length has passed.
func TestHoldsOfAMachineWhoseClockRunsAhead(t *testing.T) {
	a, member := testLedgerMember(t)
	ahead := func() time.Time { return time.Now().Add(90 * time.Second) }
	b := New("star", a.cli, ahead)
	holds := NewHolds("star", ahead)
	ctx, stop := context.WithCancel(ctxFor(t))
	defer stop()
	go holds.Follow(ctx, coord.NewTree(member.Client()), testLog())
	// B must watch the holds made, not find them open when it first lists the folder (a hold
	// found open is timed by its expires_at, on A's clock: 90 s late by B's, so due at once).
	waitFor(t, 10*time.Second, "B has listed the holds folder", holds.mirror.Listed)
	expired := make(chan struct{}, 4)
	go NewSweep(b, holds, func() int { return 0 }, testLog(), func() { expired <- struct{}{} }).Run(ctx)
	s := NewService(b, "star", time.Hour, fakeFlights{flights: nil}, holds, func() bool { return true })

	f := testFlight("LY001", 10, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	hold := func(key string) booking.Record {
		r, _, _, err := a.reserve(ctx, booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: "LY", Flight: "LY001"}}, Seats: 1, Key: key, Hold: 2 * time.Second}, given(f))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	kept, lapsed := hold("kept"), hold("lapsed")
	made := time.Now()
	waitFor(t, 10*time.Second, "B sees both holds", func() bool {
		due, _ := holds.snapshot()
		return len(due) == 2
	})
	r, err := s.Confirm(ctx, kept.ID)
	if err != nil || r.Status != booking.Confirmed {
		t.Fatalf("B confirming a hold made %s ago: %s %v", time.Since(made), r.Status, err)
	}
	select {
	case <-expired:
		t.Fatalf("B released a hold %s after it was made, before its 2 s", time.Since(made))
	case <-time.After(time.Until(made.Add(1500 * time.Millisecond))):
	}
	waitFor(t, 10*time.Second, "B releases the unconfirmed hold", func() bool {
		r, err := b.lookup(ctx, lapsed.ID)
		return err == nil && r.Status == booking.Expired
	})
	if since := time.Since(made); since < 2*time.Second {
		t.Errorf("released %s after it was made, before its 2 s", since)
	}
	if n := a.mustBooked(t, f); n != 1 {
		t.Errorf("%d seats booked, want 1 (the confirmed hold's)", n)
	}
	_, err = s.Confirm(ctx, lapsed.ID)
	var conflict *booking.ConflictError
	if !errors.As(err, &conflict) {
		t.Errorf("confirming the released hold: %v, want a conflict", err)
	}
}
