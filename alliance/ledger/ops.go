package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// reserve books req on legs (the flights as the alliance's data has them, in the request's
// order): every seat of every leg in one transaction, or nothing. created is false when the key
// had made this booking before; booked is the legs' counters as the booking left them (nil then).
// Errors: ErrKeyReused, *booking.ConflictError, *OutcomeError.
func (l *Ledger) reserve(ctx context.Context, req booking.Request, legs []flight.Flight) (rec booking.Record, booked booking.Counts, created bool, err error) {
	keyHash := booking.KeyHash(req.Key)
	fingerprint := req.Fingerprint()
	flights := make([]flight.Key, len(legs))
	for i, f := range legs {
		flights[i] = f.Key()
	}
	err = l.attempt(ctx, func(ctx context.Context) (bool, bool, error) {
		s, err := l.read(ctx, keyHash, flights)
		if err != nil {
			return false, false, err
		}
		if s.idem != nil {
			if s.idem.Fingerprint != fingerprint {
				return false, false, ErrKeyReused
			}
			r, _, err := l.get(ctx, s.idem.BookingID)
			rec = r
			return false, false, err
		}
		next, err := booking.Decide(legs, s.booked, req.Seats)
		if err != nil {
			return false, false, err
		}
		rec = booking.New(booking.NewID(req.Alliance), req, legs, l.now())
		idemKey := l.keys.idempotency(keyHash)
		cmps, puts := l.counterOps(s, next)
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(idemKey), "=", 0))
		puts = append(puts,
			clientv3.OpPut(l.keys.booking(rec.ID), mustJSON(rec)),
			clientv3.OpPut(idemKey, mustJSON(booking.Idempotency{BookingID: rec.ID, Fingerprint: fingerprint})))
		if rec.Status == booking.Held {
			puts = append(puts, clientv3.OpPut(l.keys.hold(rec.ID), rec.ExpiresAt.Format(time.RFC3339Nano)))
		}
		resp, err := l.cli().Txn(ctx).If(cmps...).Then(puts...).Commit()
		if err != nil {
			return false, true, err
		}
		created = resp.Succeeded
		if created {
			booked = next
		}
		return !resp.Succeeded, false, nil // lost a race: read again (the key may be there now)
	})
	return rec, booked, created, err
}

// get reads a booking (a linearizable read) and its record's revision.
func (l *Ledger) get(ctx context.Context, id string) (booking.Record, int64, error) {
	resp, err := l.cli().Get(ctx, l.keys.booking(id))
	if err != nil {
		return booking.Record{}, 0, err
	}
	if len(resp.Kvs) == 0 {
		return booking.Record{}, 0, fmt.Errorf("%w: %s", ErrNoBooking, id)
	}
	var r booking.Record
	if err := json.Unmarshal(resp.Kvs[0].Value, &r); err != nil {
		return booking.Record{}, 0, fmt.Errorf("booking %s: %w", id, err)
	}
	return r, resp.Kvs[0].ModRevision, nil
}

// lookup reads a booking, retrying failed reads until ctx ends.
func (l *Ledger) lookup(ctx context.Context, id string) (rec booking.Record, err error) {
	err = l.attempt(ctx, func(ctx context.Context) (bool, bool, error) {
		r, _, err := l.get(ctx, id)
		rec = r
		return false, false, err
	})
	return rec, err
}

// end changes a booking's state as decide says, in one transaction guarded by the record's
// revision and its counters' revisions: cancel, confirm, or expire a hold. It returns the
// booking as it is afterwards, and decide's error (a refusal) if it gave one.
func (l *Ledger) end(ctx context.Context, id string, decide func(booking.Record) (booking.Ending, string, error)) (rec booking.Record, refusal error) {
	err := l.attempt(ctx, func(ctx context.Context) (bool, bool, error) {
		r, recRev, err := l.get(ctx, id)
		if err != nil {
			return false, false, err
		}
		// The counters are read after the record; the transaction's compares on both settle
		// whether anything changed in between.
		s, err := l.read(ctx, "", legKeys(r))
		if err != nil {
			return false, false, err
		}
		ending, status, why := decide(r)
		rec, refusal = r, why
		recKey := l.keys.booking(id)
		cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(recKey), "=", recRev)}
		var puts []clientv3.Op
		switch ending {
		case booking.Keep, booking.Refuse:
			return false, false, nil
		case booking.Confirm:
			r.Status, r.ChangedAt = booking.Confirmed, l.now().UTC()
		case booking.Free, booking.ExpireNow:
			c, p := l.counterOps(s, booking.Release(r, s.booked))
			cmps, puts = append(cmps, c...), p
			r.Status, r.ChangedAt = status, l.now().UTC()
		}
		puts = append(puts, clientv3.OpPut(recKey, mustJSON(r)), clientv3.OpDelete(l.keys.hold(id)))
		resp, err := l.cli().Txn(ctx).If(cmps...).Then(puts...).Commit()
		if err != nil {
			return false, true, err
		}
		if resp.Succeeded {
			rec = r
		}
		return !resp.Succeeded, false, nil
	})
	if err != nil {
		return booking.Record{}, err
	}
	return rec, refusal
}

// booked reads the seats booked on one flight (a linearizable read).
func (l *Ledger) booked(ctx context.Context, k flight.Key) (n int, err error) {
	err = l.attempt(ctx, func(ctx context.Context) (bool, bool, error) {
		s, err := l.read(ctx, "", []flight.Key{k})
		n = s.booked[k]
		return false, false, err
	})
	return n, err
}
