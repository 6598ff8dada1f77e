package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
)

// Ledger is the alliance's book of bookings: its etcd is the system of record (docs/design.md,
// "Bookings"). Every change is one transaction that succeeds only if what it read is unchanged —
// the idempotency record still absent, every counter at the revision read — so nothing is locked,
// a lost race is re-read and retried, and an ambiguous outcome (a timeout, a leader change) is
// settled by running the same request again: it finds its idempotency record. What a change
// reads first is served by this machine's own member, without a round trip (attempt.go).
type Ledger struct {
	keys  keys
	cli   func() *clientv3.Client // the client of this machine's current etcd member
	now   func() time.Time
	calls calls
}

// Calls counts a ledger's etcd calls by kind: what its operations cost in round trips. A
// serializable read costs none (this machine's member answers); a linearizable read costs one to
// the etcd leader and one from it to a quorum; so does a write.
type Calls struct {
	Serializable, Linearizable, Writes int64
}

// calls are the counters behind Calls.
type calls struct{ serializable, linearizable, writes atomic.Int64 }

// Calls counts the etcd calls the ledger made since it was made.
func (l *Ledger) Calls() Calls {
	return Calls{Serializable: l.calls.serializable.Load(), Linearizable: l.calls.linearizable.Load(),
		Writes: l.calls.writes.Load()}
}

// readOpts are the options of a read, counting it: served by this machine's member unless
// linearizable.
func (l *Ledger) readOpts(linearizable bool) []clientv3.OpOption {
	if linearizable {
		l.calls.linearizable.Add(1)
		return nil
	}
	l.calls.serializable.Add(1)
	return []clientv3.OpOption{clientv3.WithSerializable()}
}

// write commits a transaction that changes the ledger: puts if every compare holds, otherwise
// (reads at the transaction's place in the log: linearizable).
func (l *Ledger) write(ctx context.Context, cmps []clientv3.Cmp, puts []clientv3.Op, otherwise ...clientv3.Op) (*clientv3.TxnResponse, error) {
	l.calls.writes.Add(1)
	return l.cli().Txn(ctx).If(cmps...).Then(puts...).Else(otherwise...).Commit()
}

// New returns the ledger of alliance over the etcd client cli gives (the client of this
// machine's current etcd member, which changes when the member is started again), with now as
// its clock.
func New(alliance string, cli func() *clientv3.Client, now func() time.Time) *Ledger {
	return &Ledger{keys: newKeys(alliance), cli: cli, now: now}
}

// Now is the ledger's clock: holds expire and bookings are dated by it.
func (l *Ledger) Now() time.Time { return l.now() }

// snapshot is what read saw at one revision.
type snapshot struct {
	idem       *booking.Idempotency
	booked     booking.Counts
	counterRev map[flight.Key]int64
}

// read reads, in one snapshot (a read-only transaction, linearizable or not), the idempotency
// record of keyHash (if keyHash is not empty) and the booked-seat counters of flights with their
// revisions.
func (l *Ledger) read(ctx context.Context, linearizable bool, keyHash string, flights []flight.Key) (snapshot, error) {
	resp, err := l.cli().Txn(ctx).Then(l.snapshotOps(keyHash, flights, l.readOpts(linearizable)...)...).Commit()
	if err != nil {
		return snapshot{}, err
	}
	return parseSnapshot(resp.Responses, keyHash, flights)
}

// snapshotOps are the reads of a snapshot: the idempotency record of keyHash (if keyHash is not
// empty), then the counters of flights.
func (l *Ledger) snapshotOps(keyHash string, flights []flight.Key, opts ...clientv3.OpOption) []clientv3.Op {
	var ops []clientv3.Op
	if keyHash != "" {
		ops = append(ops, clientv3.OpGet(l.keys.idempotency(keyHash), opts...))
	}
	for _, k := range flights {
		ops = append(ops, clientv3.OpGet(l.keys.seat(k.Seller, k.Number), opts...))
	}
	return ops
}

// parseSnapshot is the snapshot the responses to snapshotOps(keyHash, flights) read.
func parseSnapshot(resps []*etcdserverpb.ResponseOp, keyHash string, flights []flight.Key) (snapshot, error) {
	if want := len(flights) + min(len(keyHash), 1); len(resps) != want {
		return snapshot{}, fmt.Errorf("a snapshot of %d reads answered %d", want, len(resps))
	}
	s := snapshot{booked: booking.Counts{}, counterRev: map[flight.Key]int64{}}
	i := 0
	if keyHash != "" {
		if kvs := resps[i].GetResponseRange().Kvs; len(kvs) > 0 {
			s.idem = new(booking.Idempotency)
			if err := json.Unmarshal(kvs[0].Value, s.idem); err != nil {
				return snapshot{}, fmt.Errorf("idempotency record %s: %w", keyHash, err)
			}
		}
		i++
	}
	for _, k := range flights {
		if kvs := resps[i].GetResponseRange().Kvs; len(kvs) > 0 {
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
// counts) of a change of counters. A counter that was absent is compared with revision 0, which
// etcd gives an absent key: the compare fails if it was created since.
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
