package ledger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
	"flightalliance/coord/member"
	"flightalliance/internal/freeport"
)

// testLedger is a ledger over a real one-member etcd cluster.
func testLedger(t *testing.T) *Ledger {
	t.Helper()
	l, _ := testLedgerMember(t)
	return l
}

// testLedgerMember starts a one-member etcd for a test and returns the ledger of alliance
// "star" over it, and the member.
func testLedgerMember(t *testing.T) (*Ledger, *member.Member) {
	t.Helper()
	addrs, err := freeport.Addrs(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	peer, client := "http://"+addrs[0], "http://"+addrs[1]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m, err := member.Start(ctx, member.Config{
		Name: "m1", DataDir: filepath.Join(t.TempDir(), "m1"), PeerURL: peer, ClientURL: client,
		InitialCluster: "m1=" + peer, ClusterToken: "ledger-test", UnsafeNoFsync: true,
		Logger: testLog(), EtcdLogLevel: "fatal",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return New("star", func() *clientv3.Client { return m.Client() }, time.Now), m
}

func testLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// waitFor waits until ok, failing the test after within.
func waitFor(t *testing.T, within time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func testFlight(number string, seats int, dep time.Time, src, dst string) flight.Flight {
	return flight.Flight{Number: number, Seller: number[:2], Src: src, Dst: dst, Departure: dep,
		Arrival: dep.Add(2 * time.Hour), Price: 10000, Seats: seats}
}

// given finds a reservation's flights as the alliance's data has them: legs.
func given(legs ...flight.Flight) func(context.Context) ([]flight.Flight, error) {
	return func(context.Context) ([]flight.Flight, error) { return legs, nil }
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func (l *Ledger) mustBooked(t *testing.T, f flight.Flight) int {
	t.Helper()
	n, err := l.booked(ctxFor(t), f.Key())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLedgerNeverOversells races 12 clients for the last 3 seats: exactly 3 win, the others are
// told how many seats are left, and the counter ends at the capacity.
func TestLedgerNeverOversells(t *testing.T) {
	l := testLedger(t)
	f := testFlight("LY001", 3, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, refused := 0, 0
	for i := range 12 {
		wg.Go(func() {
			req := booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: "LY", Flight: "LY001"}}, Seats: 1, Key: fmt.Sprint("k", i)}
			_, _, created, err := l.reserve(ctxFor(t), req, given(f))
			var conflict *booking.ConflictError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && created:
				won++
			case errors.As(err, &conflict):
				refused++
			default:
				t.Errorf("client %d: created=%v err=%v", i, created, err)
			}
		})
	}
	wg.Wait()
	if won != 3 || refused != 9 {
		t.Errorf("%d bookings and %d refusals for 3 seats among 12 clients", won, refused)
	}
	if n := l.mustBooked(t, f); n != 3 {
		t.Errorf("counter %d, want 3", n)
	}
}

// TestLedgerBothOrNeither: a connection and a racer for the last seat of its second leg — when
// the racer wins, the connection takes nothing, so its first leg keeps its seat.
func TestLedgerBothOrNeither(t *testing.T) {
	l := testLedger(t)
	dep := time.Date(2026, 12, 1, 6, 0, 0, 0, time.UTC)
	ly, ua := testFlight("LY001", 5, dep, "TLV", "FRA"), testFlight("UA123", 1, dep.Add(3*time.Hour), "FRA", "JFK")
	ctx := ctxFor(t)
	if _, _, _, err := l.reserve(ctx, booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: "UA", Flight: "UA123"}}, Seats: 1, Key: "racer"}, given(ua)); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := l.reserve(ctx, booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: "LY", Flight: "LY001"}, {Seller: "UA", Flight: "UA123"}}, Seats: 1, Key: "trip"}, given(ly, ua))
	var conflict *booking.ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("connection over a full leg: %v, want a conflict", err)
	}
	if n := l.mustBooked(t, ly); n != 0 {
		t.Errorf("the refused connection took %d seats of its other leg", n)
	}
}

// TestLedgerIdempotent: the same key and request answer the same booking without taking seats
// again; the same key with another request is refused.
func TestLedgerIdempotent(t *testing.T) {
	l := testLedger(t)
	f := testFlight("LY001", 10, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	req := booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: "LY", Flight: "LY001"}}, Seats: 2, Key: "same"}
	ctx := ctxFor(t)
	first, _, created, err := l.reserve(ctx, req, given(f))
	if err != nil || !created {
		t.Fatal(created, err)
	}
	again, _, created, err := l.reserve(ctx, req, given(f))
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("retry: %s created=%v err=%v; first %s", again.ID, created, err, first.ID)
	}
	other := req
	other.Seats = 3
	if _, _, _, err := l.reserve(ctx, other, given(f)); !errors.Is(err, ErrKeyReused) {
		t.Errorf("same key, other request: %v", err)
	}
	if n := l.mustBooked(t, f); n != 2 {
		t.Errorf("counter %d, want 2", n)
	}
	// A retry whose flights cannot be found now (their holders unreachable) gets the booking
	// the key made, not the lookup's error ("nothing was booked"); another request under the key
	// is still refused.
	unreachable := func(context.Context) ([]flight.Flight, error) { return nil, errors.New("no holder of LY answered") }
	again, _, created, err = l.reserve(ctx, req, unreachable)
	if err != nil || created || again.ID != first.ID {
		t.Errorf("retry while the flights cannot be found: %s created=%v err=%v; want %s", again.ID, created, err, first.ID)
	}
	if _, _, _, err := l.reserve(ctx, other, unreachable); !errors.Is(err, ErrKeyReused) {
		t.Errorf("same key, other request, flights not found: %v", err)
	}
	fresh := req
	fresh.Key = "never-used"
	if _, _, _, err := l.reserve(ctx, fresh, unreachable); err == nil || errors.Is(err, ErrKeyReused) {
		t.Errorf("a new key whose flights cannot be found: %v, want the lookup's error", err)
	}
}

// TestLedgerCancelConfirmExpire walks a hold and a booking through their endings: each gives its
// seats back exactly once, and what is refused says why.
func TestLedgerCancelConfirmExpire(t *testing.T) {
	l := testLedger(t)
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return now }
	f := testFlight("LY001", 10, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	ctx := ctxFor(t)
	reserve := func(key string, hold time.Duration) booking.Record {
		r, _, _, err := l.reserve(ctx, booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: "LY", Flight: "LY001"}}, Seats: 2, Key: key, Hold: hold}, given(f))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	cancel := func(r booking.Record) (booking.Ending, string, error) {
		return booking.Cancel(r), booking.Cancelled, nil
	}
	confirm := func(r booking.Record) (booking.Ending, string, error) {
		e, err := booking.ConfirmAt(r, now)
		return e, booking.Expired, err
	}

	b := reserve("plain", 0)
	for range 2 {
		if r, err := l.end(ctx, b.ID, cancel); err != nil || r.Status != booking.Cancelled {
			t.Fatalf("cancel: %s %v", r.Status, err)
		}
	}
	if n := l.mustBooked(t, f); n != 0 {
		t.Errorf("after cancelling twice: %d booked, want 0", n)
	}

	h := reserve("hold", time.Minute)
	if r, err := l.end(ctx, h.ID, confirm); err != nil || r.Status != booking.Confirmed {
		t.Fatalf("confirm: %s %v", r.Status, err)
	}
	late := reserve("late", time.Minute)
	now = now.Add(time.Minute)
	r, err := l.end(ctx, late.ID, confirm)
	var conflict *booking.ConflictError
	if !errors.As(err, &conflict) || r.Status != booking.Expired {
		t.Fatalf("confirm after expiry: %s %v", r.Status, err)
	}
	if r, err := l.end(ctx, late.ID, cancel); err != nil || r.Status != booking.Expired {
		t.Errorf("cancel an expired hold: %s %v", r.Status, err)
	}
	if n := l.mustBooked(t, f); n != 2 {
		t.Errorf("confirmed hold kept, expired hold released: %d booked, want 2", n)
	}
	if _, err := l.end(ctx, "star.aaaaaaaaaaaaaaaaaaaaaaaaaa", cancel); !errors.Is(err, ErrNoBooking) {
		t.Errorf("unknown booking: %v", err)
	}
}
