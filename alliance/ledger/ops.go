package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// reserve books req on the flights find returns (the flights of req's legs as the alliance's
// data has them, in the request's order, or the error to answer): every seat of every leg in one
// transaction, or nothing. find runs while the first read is under way; that read is served by
// this machine's member, so a reservation costs a round trip to etcd only for its write. A write
// whose compares fail reads the key and counters again in its Else branch — in the same round
// trip, and linearizably, since the branch runs at the transaction's place in the log — and the
// next step decides from that. created is false when the key had made this booking before;
// booked is the legs' counters as the booking left them (nil then). Errors: find's,
// ErrKeyReused, *booking.ConflictError, *OutcomeError.
func (l *Ledger) reserve(ctx context.Context, req booking.Request, find func(context.Context) ([]flight.Flight, error)) (rec booking.Record, booked booking.Counts, created bool, err error) {
	keyHash := booking.KeyHash(req.Key)
	fingerprint := req.Fingerprint()
	flights := make([]flight.Key, len(req.Legs))
	for i, leg := range req.Legs {
		flights[i] = flight.Key{Seller: leg.Seller, Number: leg.Flight}
	}
	var hand inHand // the next step's snapshot, when it need not read
	var reading sync.WaitGroup
	reading.Go(func() {
		s, err := l.read(clientv3.WithRequireLeader(ctx), false, keyHash, flights)
		hand = inHand{s: s, err: err, ok: true}
	})
	legs, err := find(ctx)
	reading.Wait()
	if err != nil {
		if r, ok, rerr := l.replay(ctx, keyHash, fingerprint); ok || rerr != nil {
			return r, nil, false, rerr
		}
		return rec, nil, false, err
	}
	if found := flightKeys(legs); !slices.Equal(found, flights) {
		flights, hand = found, inHand{} // not the counters read ahead: read them
	}
	err = l.attempt(ctx, false, func(ctx context.Context, linearizable bool) (result, error) {
		s, err := hand.s, hand.err
		if !hand.usable(linearizable) {
			s, err = l.read(ctx, linearizable, keyHash, flights)
		}
		hand = inHand{}
		if err != nil {
			return failedRead, err
		}
		if s.idem != nil {
			if s.idem.Fingerprint != fingerprint {
				return unwritten, ErrKeyReused
			}
			r, _, err := l.get(ctx, linearizable, s.idem.BookingID)
			if err != nil {
				return readFailure(err), err
			}
			rec = r
			return unwritten, nil
		}
		next, err := booking.Decide(legs, s.booked, req.Seats)
		if err != nil {
			return unwritten, err
		}
		r := booking.New(booking.NewID(req.Alliance), req, legs, l.now())
		idemKey := l.keys.idempotency(keyHash)
		cmps, puts := l.counterOps(s, next)
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(idemKey), "=", 0))
		puts = append(puts,
			clientv3.OpPut(l.keys.booking(r.ID), mustJSON(r)),
			clientv3.OpPut(idemKey, mustJSON(booking.Idempotency{BookingID: r.ID, Fingerprint: fingerprint})))
		if r.Status == booking.Held {
			puts = append(puts, clientv3.OpPut(l.keys.hold(r.ID), holdValue(r, req.Hold)))
		}
		resp, err := l.write(ctx, cmps, puts, l.snapshotOps(keyHash, flights)...)
		if err != nil {
			return failedWrite, err
		}
		if !resp.Succeeded {
			now, err := parseSnapshot(resp.Responses, keyHash, flights)
			hand = inHand{s: now, err: err, linearizable: true, ok: true}
			return lostRace, nil // decide again from what is there now: the key may be there
		}
		rec, booked, created = r, next, true
		return committed, nil
	})
	return rec, booked, created, err
}

// replay is the booking an earlier request with the key made (ok), read linearizably, for a
// retry whose flights cannot be found now (their holders unreachable, the seller's data
// changed): the key booked, and its retry gets that booking back rather than find's error
// ("nothing was booked"). ErrKeyReused when the key was used for another request. Not ok, and
// no error, when the key has made nothing or its record cannot be read now (find's error
// stands).
func (l *Ledger) replay(ctx context.Context, keyHash, fingerprint string) (booking.Record, bool, error) {
	s, err := l.read(ctx, true, keyHash, nil)
	if err != nil || s.idem == nil {
		return booking.Record{}, false, nil
	}
	if s.idem.Fingerprint != fingerprint {
		return booking.Record{}, true, ErrKeyReused
	}
	r, _, err := l.get(ctx, true, s.idem.BookingID)
	if err != nil {
		return booking.Record{}, false, nil
	}
	return r, true, nil
}

// inHand is a snapshot the next step may decide from without reading: read ahead from this
// machine's member, or by a write that failed its compares (linearizable).
type inHand struct {
	s                snapshot
	err              error
	linearizable, ok bool
}

// usable reports whether a step reading linearizably or not may decide from the snapshot.
func (h inHand) usable(linearizable bool) bool { return h.ok && (h.linearizable || !linearizable) }

// get reads a booking (linearizably or not) and its record's revision.
func (l *Ledger) get(ctx context.Context, linearizable bool, id string) (booking.Record, int64, error) {
	resp, err := l.cli().Get(ctx, l.keys.booking(id), l.readOpts(linearizable)...)
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

// lookup reads a booking (a linearizable read), retrying failed reads until ctx ends.
func (l *Ledger) lookup(ctx context.Context, id string) (rec booking.Record, err error) {
	err = l.attempt(ctx, true, func(ctx context.Context, linearizable bool) (result, error) {
		r, _, err := l.get(ctx, linearizable, id)
		if err != nil {
			return readFailure(err), err
		}
		rec = r
		return unwritten, nil
	})
	return rec, err
}

// end changes a booking's state as decide says, in one transaction guarded by the record's
// revision and, when seats go back, its counters' revisions: cancel, confirm, or expire a hold.
// It returns the booking as it is afterwards, and decide's error (a refusal) if it gave one.
// The record and counters are first read from this machine's member; a decision that writes
// nothing (keep, refuse, no such booking) is made again from linearizable reads.
func (l *Ledger) end(ctx context.Context, id string, decide func(booking.Record) (booking.Ending, string, error)) (rec booking.Record, refusal error) {
	err := l.attempt(ctx, false, func(ctx context.Context, linearizable bool) (result, error) {
		r, recRev, err := l.get(ctx, linearizable, id)
		if err != nil {
			return readFailure(err), err
		}
		ending, status, why := decide(r)
		rec, refusal = r, why
		recKey := l.keys.booking(id)
		cmps := []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(recKey), "=", recRev)}
		var puts []clientv3.Op
		switch ending {
		case booking.Keep, booking.Refuse:
			return unwritten, nil
		case booking.Confirm:
			r.Status, r.ChangedAt = booking.Confirmed, l.now().UTC()
		case booking.Free, booking.ExpireNow:
			// The counters are read after the record; the compares on both settle whether
			// anything changed in between.
			s, err := l.read(ctx, linearizable, "", legKeys(r))
			if err != nil {
				return failedRead, err
			}
			c, p := l.counterOps(s, booking.Release(r, s.booked))
			cmps, puts = append(cmps, c...), p
			r.Status, r.ChangedAt = status, l.now().UTC()
		}
		puts = append(puts, clientv3.OpPut(recKey, mustJSON(r)), clientv3.OpDelete(l.keys.hold(id)))
		resp, err := l.write(ctx, cmps, puts)
		if err != nil {
			return failedWrite, err
		}
		if !resp.Succeeded {
			return lostRace, nil
		}
		rec = r
		return committed, nil
	})
	if err != nil {
		return booking.Record{}, err
	}
	return rec, refusal
}

// booked reads the seats booked on one flight (a linearizable read).
func (l *Ledger) booked(ctx context.Context, k flight.Key) (n int, err error) {
	err = l.attempt(ctx, true, func(ctx context.Context, linearizable bool) (result, error) {
		s, err := l.read(ctx, linearizable, "", []flight.Key{k})
		if err != nil {
			return failedRead, err
		}
		n = s.booked[k]
		return unwritten, nil
	})
	return n, err
}

func flightKeys(legs []flight.Flight) []flight.Key {
	keys := make([]flight.Key, len(legs))
	for i, f := range legs {
		keys[i] = f.Key()
	}
	return keys
}
