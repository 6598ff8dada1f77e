package ledger

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// lagging is an etcd member behind its leader: its serializable reads answer from the revision
// at (0: the latest), while its linearizable reads and its writes are the cluster's.
type lagging struct {
	clientv3.KV
	at *atomic.Int64
}

func (k lagging) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	if clientv3.OpGet(key, opts...).IsSerializable() {
		opts = append(opts, clientv3.WithRev(k.at.Load()))
	}
	return k.KV.Get(ctx, key, opts...)
}

func (k lagging) Txn(ctx context.Context) clientv3.Txn { return &laggingTxn{lagging: k, ctx: ctx} }

// laggingTxn answers a read-only transaction of serializable reads from the lagging revision.
type laggingTxn struct {
	lagging
	ctx             context.Context
	cmps            []clientv3.Cmp
	then, otherwise []clientv3.Op
}

func (t *laggingTxn) If(cs ...clientv3.Cmp) clientv3.Txn { t.cmps = append(t.cmps, cs...); return t }
func (t *laggingTxn) Then(ops ...clientv3.Op) clientv3.Txn {
	t.then = append(t.then, ops...)
	return t
}
func (t *laggingTxn) Else(ops ...clientv3.Op) clientv3.Txn {
	t.otherwise = append(t.otherwise, ops...)
	return t
}

func (t *laggingTxn) Commit() (*clientv3.TxnResponse, error) {
	then := t.then
	stale := len(t.cmps) == 0 && len(t.otherwise) == 0
	for _, op := range then {
		stale = stale && op.IsGet() && op.IsSerializable()
	}
	if stale {
		then = make([]clientv3.Op, len(t.then))
		for i, op := range t.then {
			then[i] = clientv3.OpGet(string(op.KeyBytes()), clientv3.WithSerializable(), clientv3.WithRev(t.at.Load()))
		}
	}
	return t.KV.Txn(t.ctx).If(t.cmps...).Then(then...).Else(t.otherwise...).Commit()
}

// laggingLedgers returns a ledger over a one-member etcd cluster, and a ledger of the same
// alliance whose member lags: its serializable reads see the revision pin sets.
func laggingLedgers(t *testing.T) (l, lag *Ledger, pin func()) {
	l = testLedger(t)
	var at atomic.Int64
	kv := l.cli().KV
	lag = New("star", func() *clientv3.Client { return &clientv3.Client{KV: lagging{KV: kv, at: &at}} }, time.Now)
	return l, lag, func() {
		resp, err := kv.Get(ctxFor(t), "/")
		if err != nil {
			t.Fatal(err)
		}
		at.Store(resp.Header.Revision)
	}
}

func oneSeatRequest(f flight.Flight, key string, hold time.Duration) booking.Request {
	return booking.Request{Alliance: "star", Legs: []booking.LegRef{{Seller: f.Seller, Flight: f.Number}}, Seats: 1, Key: key, Hold: hold}
}

func (l *Ledger) mustReserve(t *testing.T, f flight.Flight, key string, hold time.Duration) booking.Record {
	t.Helper()
	r, _, created, err := l.reserve(ctxFor(t), oneSeatRequest(f, key, hold), given(f))
	if err != nil || !created {
		t.Fatalf("reserve %s: created=%v %v", key, created, err)
	}
	return r
}

func cancelling(r booking.Record) (booking.Ending, string, error) {
	return booking.Cancel(r), booking.Cancelled, nil
}

// TestStaleRefusalIsDecidedAgain: a member that still sees the last seat taken does not refuse
// it — the refusal writes nothing, so it is decided again from a linearizable read, and books.
func TestStaleRefusalIsDecidedAgain(t *testing.T) {
	l, lag, pin := laggingLedgers(t)
	f := testFlight("LY001", 1, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	a := l.mustReserve(t, f, "a", 0)
	pin()
	if _, err := l.end(ctxFor(t), a.ID, cancelling); err != nil {
		t.Fatal(err)
	}
	_, booked, created, err := lag.reserve(ctxFor(t), oneSeatRequest(f, "b", 0), given(f))
	if err != nil || !created || booked[f.Key()] != 1 {
		t.Fatalf("the seat given back, seen taken by a lagging member: created=%v booked=%v %v, want it booked", created, booked, err)
	}
	if c := lag.Calls(); c != (Calls{Serializable: 1, Linearizable: 1, Writes: 1}) {
		t.Errorf("calls %+v, want the stale read, one linearizable read and the write", c)
	}
}

// TestStaleSeatIsNotSoldTwice: a member that still sees a seat free — its counter absent, or at
// an older count — cannot sell it: the write's compare fails, and the refusal is decided from
// what the failed write read at its place in the log.
func TestStaleSeatIsNotSoldTwice(t *testing.T) {
	dep := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name   string
		seats  int
		before int // seats booked before the member stops following
	}{{"counter absent", 1, 0}, {"counter behind", 2, 1}} {
		t.Run(c.name, func(t *testing.T) {
			l, lag, pin := laggingLedgers(t)
			f := testFlight("LY001", c.seats, dep, "TLV", "FRA")
			for i := range c.before {
				l.mustReserve(t, f, "before"+string(rune('a'+i)), 0)
			}
			pin()
			l.mustReserve(t, f, "last", 0)
			_, _, created, err := lag.reserve(ctxFor(t), oneSeatRequest(f, "late", 0), given(f))
			var conflict *booking.ConflictError
			if !errors.As(err, &conflict) || created {
				t.Fatalf("a full flight seen with a seat by a lagging member: created=%v %v, want a refusal", created, err)
			}
			if n := l.mustBooked(t, f); n != c.seats {
				t.Errorf("counter %d, want %d", n, c.seats)
			}
			if c := lag.Calls(); c != (Calls{Serializable: 1, Writes: 1}) {
				t.Errorf("calls %+v, want the stale read and the write, which read the counters again", c)
			}
		})
	}
}

// TestStaleReplayAnswersTheBooking: a member that has not seen a key's booking yet does not book
// it twice: the absent idempotency record is a compare, and the request again answers the
// booking it made.
func TestStaleReplayAnswersTheBooking(t *testing.T) {
	l, lag, pin := laggingLedgers(t)
	f := testFlight("LY001", 5, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	pin()
	first := l.mustReserve(t, f, "same", 0)
	again, _, created, err := lag.reserve(ctxFor(t), oneSeatRequest(f, "same", 0), given(f))
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("the same request on a lagging member: %s created=%v %v, want %s", again.ID, created, err, first.ID)
	}
	if n := l.mustBooked(t, f); n != 1 {
		t.Errorf("counter %d, want 1", n)
	}
}

// TestStaleEndingsAreDecidedAgain: a member that has not seen a booking yet cancels it all the
// same, and one that still sees a cancelled hold as confirmed does not answer "confirmed".
func TestStaleEndingsAreDecidedAgain(t *testing.T) {
	l, lag, pin := laggingLedgers(t)
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	l.now, lag.now = func() time.Time { return now }, func() time.Time { return now }
	f := testFlight("LY001", 5, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	ctx := ctxFor(t)

	pin()
	a := l.mustReserve(t, f, "unseen", 0)
	if r, err := lag.end(ctx, a.ID, cancelling); err != nil || r.Status != booking.Cancelled {
		t.Fatalf("cancel a booking the lagging member has not seen: %s %v", r.Status, err)
	}

	h := l.mustReserve(t, f, "hold", time.Minute)
	confirm := func(r booking.Record) (booking.Ending, string, error) {
		e, err := booking.ConfirmAt(r, now)
		return e, booking.Expired, err
	}
	if _, err := l.end(ctx, h.ID, confirm); err != nil {
		t.Fatal(err)
	}
	pin()
	if _, err := l.end(ctx, h.ID, cancelling); err != nil {
		t.Fatal(err)
	}
	r, err := lag.end(ctx, h.ID, confirm)
	var conflict *booking.ConflictError
	if !errors.As(err, &conflict) || r.Status != booking.Cancelled {
		t.Fatalf("confirm a cancelled booking the lagging member sees confirmed: %s %v, want a refusal", r.Status, err)
	}
	if n := l.mustBooked(t, f); n != 0 {
		t.Errorf("counter %d, want 0", n)
	}
}

// TestReservationCalls: on a member that is current, a reservation reads from it and writes once
// — no linearizable read; a refusal is read once more linearizably and writes nothing.
func TestReservationCalls(t *testing.T) {
	l := testLedger(t)
	f := testFlight("LY001", 1, time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), "TLV", "FRA")
	l.mustReserve(t, f, "a", 0)
	if c := l.Calls(); c != (Calls{Serializable: 1, Writes: 1}) {
		t.Errorf("a reservation: %+v, want one serializable read and one write", c)
	}
	if _, _, _, err := l.reserve(ctxFor(t), oneSeatRequest(f, "b", 0), given(f)); err == nil {
		t.Fatal("a second reservation of the only seat succeeded")
	}
	if c := l.Calls(); c != (Calls{Serializable: 2, Linearizable: 1, Writes: 1}) {
		t.Errorf("then a refusal: %+v, want one more serializable read and one linearizable read", c)
	}
}
