package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// Ledger is the alliance's book of bookings: its etcd is the system of record (DESIGN.md,
// "Bookings"). Every change is one transaction that succeeds only if what it read is unchanged —
// the idempotency record still absent, every counter at the revision read — so nothing is locked,
// a lost race is re-read and retried, and an ambiguous outcome (a timeout, a leader change) is
// settled by running the same request again: it finds its idempotency record.
type Ledger struct {
	keys keys
	cli  func() *clientv3.Client // the client of this machine's current etcd member
	now  func() time.Time
}

// New returns the ledger of alliance over the etcd client cli gives (the client of this
// machine's current etcd member, which changes when the member is started again), with now as
// its clock.
func New(alliance string, cli func() *clientv3.Client, now func() time.Time) *Ledger {
	return &Ledger{keys: newKeys(alliance), cli: cli, now: now}
}

// Now is the ledger's clock: holds expire and bookings are dated by it.
func (l *Ledger) Now() time.Time { return l.now() }

// definite reports whether a failed etcd call certainly changed nothing: the member had no
// leader (the request was refused before any proposal) or refused it outright.
func definite(err error) bool {
	return errors.Is(err, rpctypes.ErrNoLeader) || errors.Is(err, rpctypes.ErrNoSpace) ||
		errors.Is(err, rpctypes.ErrTooManyRequests) || errors.Is(err, rpctypes.ErrGRPCNoLeader)
}

// attempt runs step until it reports done, retrying lost races and failed etcd calls with a short
// backoff until ctx ends. step returns retry=true for a lost race (re-read and try again) and an
// error for a failed call; wrote says whether the failed call was a write.
func (l *Ledger) attempt(ctx context.Context, step func(ctx context.Context) (retry, wrote bool, err error)) error {
	unknown := false
	var last error
	for n := 0; ; n++ {
		retry, wrote, err := step(clientv3.WithRequireLeader(ctx))
		switch {
		case err == nil && !retry:
			return nil
		case err != nil:
			var keep *OutcomeError
			if errors.As(err, &keep) || errors.Is(err, ErrNoBooking) || errors.Is(err, ErrKeyReused) {
				return err
			}
			var conflict *booking.ConflictError
			if errors.As(err, &conflict) {
				return err
			}
			if wrote && !definite(err) {
				unknown = true
			}
			last = err
		}
		backoff := min(time.Duration(1<<min(n, 5))*10*time.Millisecond, 200*time.Millisecond)
		select {
		case <-ctx.Done():
			if last == nil {
				last = ctx.Err()
			}
			return &OutcomeError{Unknown: unknown, Err: last}
		case <-time.After(backoff):
		}
	}
}

// snapshot is what read saw at one revision.
type snapshot struct {
	idem       *booking.Idempotency
	booked     booking.Counts
	counterRev map[flight.Key]int64
}

// read reads, in one snapshot (a read-only transaction), the idempotency record of keyHash (if
// keyHash is not empty) and the booked-seat counters of flights with their revisions.
func (l *Ledger) read(ctx context.Context, keyHash string, flights []flight.Key) (snapshot, error) {
	var ops []clientv3.Op
	if keyHash != "" {
		ops = append(ops, clientv3.OpGet(l.keys.idempotency(keyHash)))
	}
	for _, k := range flights {
		ops = append(ops, clientv3.OpGet(l.keys.seat(k.Seller, k.Number)))
	}
	resp, err := l.cli().Txn(ctx).Then(ops...).Commit()
	if err != nil {
		return snapshot{}, err
	}
	s := snapshot{booked: booking.Counts{}, counterRev: map[flight.Key]int64{}}
	i := 0
	if keyHash != "" {
		if kvs := resp.Responses[i].GetResponseRange().Kvs; len(kvs) > 0 {
			s.idem = new(booking.Idempotency)
			if err := json.Unmarshal(kvs[0].Value, s.idem); err != nil {
				return snapshot{}, fmt.Errorf("idempotency record %s: %w", keyHash, err)
			}
		}
		i++
	}
	for _, k := range flights {
		if kvs := resp.Responses[i].GetResponseRange().Kvs; len(kvs) > 0 {
			n, err := strconv.Atoi(string(kvs[0].Value))
			if err != nil {
				return snapshot{}, fmt.Errorf("seat counter of %s %s: %w", k.Seller, k.Number, err)
			}
			s.booked[k], s.counterRev[k] = n, kvs[0].ModRevision
		}
		i++
	}
	return s, nil
}

// counterOps are the compares (each counter still at the revision read) and the writes (the new
// counts) of a change of counters.
func (l *Ledger) counterOps(s snapshot, next booking.Counts) (cmps []clientv3.Cmp, puts []clientv3.Op) {
	for k, n := range next {
		key := l.keys.seat(k.Seller, k.Number)
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(key), "=", s.counterRev[k]))
		puts = append(puts, clientv3.OpPut(key, strconv.Itoa(n)))
	}
	return cmps, puts
}

func legKeys(r booking.Record) []flight.Key {
	keys := make([]flight.Key, len(r.Legs))
	for i, l := range r.Legs {
		keys[i] = l.Key()
	}
	return keys
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("ledger: encoding %T: %v", v, err)) // plain structs: cannot fail
	}
	return string(b)
}
