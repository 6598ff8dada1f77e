package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/robustness/model"
)

// chaosBooker is one client of the linearizability test: it reserves, cancels its own bookings
// and reads seats on a few small flights, and records every operation in the history. A request
// without a definite answer is retried with the same key until opTimeout; one still unknown then
// is set aside (resolved or recorded as unknown at the end) and the client goes on under a new
// client id, as a crashed client's successor would.
type chaosBooker struct {
	api       bookingAPI
	h         *model.History
	flights   []flight.Flight
	rng       *rand.Rand
	ids       *atomic.Int64 // porcupine client ids
	client    int
	opTimeout time.Duration
	mine      map[flight.Key][]string // this client's live bookings

	mu       *sync.Mutex
	pending  *[]pendingOp
	problems *[]string // answers the contract does not allow, whatever the faults
}

// pendingOp is an operation whose outcome was still unknown at its client's deadline.
type pendingOp struct {
	client int
	in     model.Input
	call   int64
	f      flight.Flight
	req    bookRequest // reserve
}

func flightName(f flight.Flight) string { return f.Seller + "/" + f.Number }

// run issues operations until ctx ends.
func (c *chaosBooker) run(ctx context.Context) {
	for ctx.Err() == nil {
		f := c.flights[c.rng.IntN(len(c.flights))]
		switch r := c.rng.IntN(100); {
		case r < 35 && len(c.mine[f.Key()]) > 0:
			c.cancel(f)
		case r < 60:
			c.read(f)
		default:
			c.reserve(f, 1+c.rng.IntN(2))
		}
	}
}

func (c *chaosBooker) problem(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	*c.problems = append(*c.problems, fmt.Sprintf(format, args...))
}

// setAside keeps an unknown operation for the end and moves this client to a new id.
func (c *chaosBooker) setAside(op pendingOp) {
	c.mu.Lock()
	*c.pending = append(*c.pending, op)
	c.mu.Unlock()
	c.client = int(c.ids.Add(1))
}

func (c *chaosBooker) reserve(f flight.Flight, seats int) {
	key := newKey(fmt.Sprintf("lin%d", c.client))
	in := model.Input{Kind: model.Reserve, Flight: flightName(f), Capacity: f.Seats, Seats: seats, Key: key}
	req := oneLeg(f, seats)
	call := c.h.Now()
	ctx, cancel := context.WithTimeout(context.Background(), c.opTimeout)
	defer cancel()
	out, ok := c.reserveOutcome(c.api.bookUntilDefinite(ctx, key, req), f, seats)
	if !ok {
		c.setAside(pendingOp{client: c.client, in: in, call: call, f: f, req: req})
		return
	}
	c.h.Add(c.client, in, call, out, c.h.Now())
	if out.Outcome == model.OK {
		c.mine[f.Key()] = append(c.mine[f.Key()], out.ID)
	}
}

// reserveOutcome classifies a reserve's answer; ok is false when it settles nothing.
func (c *chaosBooker) reserveOutcome(ans restAnswer, f flight.Flight, seats int) (model.Output, bool) {
	switch {
	case !ans.definite():
		if ans.status == http.StatusInternalServerError {
			c.problem("reserve %s: %v", f.Number, ans)
		}
		return model.Output{}, false
	case ans.status == http.StatusCreated || ans.status == http.StatusOK:
		b, err := ans.booking()
		if err != nil || b.Seats != seats || len(b.Legs) != 1 || b.Legs[0].Flight != f.Number ||
			!bookingIDPattern("star").MatchString(b.ID) {
			c.problem("reserve %d of %s answered %v", seats, f.Number, ans)
			return model.Output{}, false
		}
		return model.Output{Outcome: model.OK, ID: b.ID}, true
	case ans.status == http.StatusConflict:
		return model.Output{Outcome: model.Full}, true
	}
	c.problem("reserve %d of %s answered %v", seats, f.Number, ans)
	return model.Output{}, false
}

func (c *chaosBooker) cancel(f flight.Flight) {
	live := c.mine[f.Key()]
	i := c.rng.IntN(len(live))
	id := live[i]
	c.mine[f.Key()] = append(live[:i:i], live[i+1:]...)
	in := model.Input{Kind: model.Cancel, Flight: flightName(f), Capacity: f.Seats, ID: id}
	call := c.h.Now()
	ctx, cancel := context.WithTimeout(context.Background(), c.opTimeout)
	defer cancel()
	out, ok := c.cancelOutcome(cancelUntilDefinite(ctx, c.api, id), id)
	if !ok {
		c.setAside(pendingOp{client: c.client, in: in, call: call, f: f})
		return
	}
	c.h.Add(c.client, in, call, out, c.h.Now())
}

func cancelUntilDefinite(ctx context.Context, api bookingAPI, id string) restAnswer {
	for {
		ans := api.cancel(ctx, id)
		if ans.definite() || ctx.Err() != nil {
			return ans
		}
		select {
		case <-ctx.Done():
			return ans
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *chaosBooker) cancelOutcome(ans restAnswer, id string) (model.Output, bool) {
	switch {
	case !ans.definite():
		if ans.status == http.StatusInternalServerError {
			c.problem("cancel %s: %v", id, ans)
		}
		return model.Output{}, false
	case ans.status == http.StatusOK:
		if b, err := ans.booking(); err != nil || b.ID != id || b.Status != "cancelled" {
			c.problem("cancel %s answered %v", id, ans)
			return model.Output{}, false
		}
		return model.Output{Outcome: model.OK}, true
	case ans.status == http.StatusNotFound:
		return model.Output{Outcome: model.Missing}, true
	}
	c.problem("cancel %s answered %v", id, ans)
	return model.Output{}, false
}

// read is one linearizable seat read; one without an answer constrains nothing and is dropped.
func (c *chaosBooker) read(f flight.Flight) {
	in := model.Input{Kind: model.Read, Flight: flightName(f), Capacity: f.Seats}
	call := c.h.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, ans := c.api.seats(ctx, "star", refOf(f))
	ret := c.h.Now()
	switch {
	case ans.err == nil && ans.status == http.StatusOK:
		if s.Capacity != f.Seats || s.Left != s.Capacity-s.Booked {
			c.problem("seats of %s: %+v (capacity %d)", f.Number, s, f.Seats)
		}
		c.h.Add(c.client, in, call, model.Output{Outcome: model.OK, Booked: s.Booked}, ret)
	case ans.status == http.StatusInternalServerError || (ans.definite() && ans.status != http.StatusOK):
		c.problem("seats of %s: %v", f.Number, ans)
	}
}

// resolve retries a set-aside operation after the faults (the same key, or the same cancel)
// and records it with the answer it gets, or as unknown.
func (c *chaosBooker) resolve(op pendingOp, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var out model.Output
	var ok bool
	if op.in.Kind == model.Reserve {
		out, ok = c.reserveOutcome(c.api.bookUntilDefinite(ctx, op.in.Key, op.req), op.f, op.in.Seats)
	} else {
		out, ok = c.cancelOutcome(cancelUntilDefinite(ctx, c.api, op.in.ID), op.in.ID)
	}
	if !ok {
		out = model.Output{Outcome: model.Unknown}
	}
	c.h.Add(op.client, op.in, op.call, out, c.h.Now())
}
