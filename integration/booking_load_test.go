package integration

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
	"flightalliance/tests/robustness/model"
)

// bookingLoad is clients (chaosBooker) reserving, cancelling and reading seats on a few small
// flights through the search server while a test does something to the alliance, every
// operation recorded for porcupine; finish stops them and checks what they saw.
type bookingLoad struct {
	w        *bookingWorld
	flights  []flight.Flight
	h        *model.History
	ids      atomic.Int64 // porcupine client ids
	mu       sync.Mutex   // guards pending and problems, for the clients
	pending  []pendingOp
	problems []string
	stop     context.CancelFunc
	clients  sync.WaitGroup
	bookers  []*chaosBooker
}

// fewSeats picks the load's flights (two of LY, one of UA) into *flights and gives them 3, 4 and 5
// seats: contention. It is newBookingWorld's seats function.
func fewSeats(flights *[]flight.Flight) func(map[string][]flight.Flight) map[flight.Key]int {
	return func(data map[string][]flight.Flight) map[flight.Key]int {
		*flights = append(directFlights(data, "LY", 2), directFlights(data, "UA", 1)...)
		seats := map[flight.Key]int{}
		for i, f := range *flights {
			seats[f.Key()] = 3 + i
		}
		return seats
	}
}

// startBookingLoad starts n clients on flights (as the alliance has them: bookingWorld.flight),
// each with its own random sequence of operations drawn from seed.
func startBookingLoad(w *bookingWorld, flights []flight.Flight, seed uint64, n int) *bookingLoad {
	l := &bookingLoad{w: w, flights: flights, h: model.NewHistory()}
	ctx, stop := context.WithCancel(context.Background())
	l.stop = stop
	// A test that fails before finish leaves no client running against servers torn down.
	w.t.Cleanup(func() { stop(); l.clients.Wait() })
	for i := range n {
		c := &chaosBooker{api: w.api, h: l.h, flights: flights, rng: rand.New(rand.NewPCG(seed, uint64(10+i))),
			ids: &l.ids, client: int(l.ids.Add(1)), opTimeout: 4 * time.Second, mine: map[flight.Key][]string{},
			mu: &l.mu, pending: &l.pending, problems: &l.problems}
		l.bookers = append(l.bookers, c)
		l.clients.Go(func() { c.run(ctx) })
	}
	return l
}

// finish stops the clients; once the alliance has settled and books again, it retries the
// operations left unknown with their keys, reads every flight once more, and checks: no answer
// broke the contract (a 500, a 404 for an acknowledged booking…), etcd's booked-seat counters
// equal the seats of the live bookings, and the history is linearizable per flight (porcupine,
// given checkFor at least; notes go on its picture). It returns the history's operations.
func (l *bookingLoad) finish(t *testing.T, checkFor time.Duration, notes ...porcupine.Annotation) []porcupine.Operation {
	t.Helper()
	l.stopClients()
	l.w.a.waitSettled(90 * time.Second)
	l.w.waitBookable(l.flights[0], 60*time.Second)
	return l.check(t, checkFor, func() { checkLedger(t, l.w, l.flights) }, notes...)
}

// stopClients stops the clients and waits for them.
func (l *bookingLoad) stopClients() {
	l.stop()
	l.clients.Wait()
}

// check, once the clients have stopped and the alliance books again, retries the operations left
// unknown with their keys, reads every flight once more, and checks that no answer broke the
// contract, then runs ledger (a check of the stored counters, or nil), then that the history is
// linearizable per flight.
func (l *bookingLoad) check(t *testing.T, checkFor time.Duration, ledger func(), notes ...porcupine.Annotation) []porcupine.Operation {
	t.Helper()
	for _, op := range l.pending {
		l.bookers[0].resolve(op, 30*time.Second)
	}
	final := int(l.ids.Add(1))
	for _, f := range l.flights {
		call := l.h.Now()
		s := l.w.api.mustSeats(t, "star", refOf(f))
		l.h.Add(final, model.Input{Kind: model.Read, Flight: flightName(f), Capacity: f.Seats}, call,
			model.Output{Outcome: model.OK, Booked: s.Booked}, l.h.Now())
	}

	ops := l.h.Operations()
	t.Logf("%d operations (%d set aside as unknown and retried at the end): %s", len(ops), len(l.pending), model.Counts(ops))
	for _, p := range l.problems {
		t.Errorf("an answer the contract does not allow: %s", p)
	}
	if ledger != nil {
		ledger()
	}
	start := time.Now()
	// Checking takes about a tenth of the run (a 3-minute run: 100k operations, 20s).
	if res := model.Check(t, ops, max(time.Minute, checkFor), framework.KeptLogsDir(t), notes...); res == porcupine.Ok {
		t.Logf("the history is linearizable per flight (checked in %v)", time.Since(start).Round(time.Millisecond))
	}
	return ops
}

// startLoads starts, once the alliance books, a search every 50 ms through the search server (6
// busy queries, each answer checked against the reference) and 4 booking clients on flights (as
// fewSeats picked them: they are taken as the alliance has them).
func (w *bookingWorld) startLoads(flights []flight.Flight) (*steadyLoad, *bookingLoad) {
	w.t.Helper()
	for i := range flights {
		flights[i] = w.flight(flights[i])
	}
	w.waitBookable(flights[0], 90*time.Second)
	queries, want := w.a.readyQueries(w.base, 6)
	searches := startSteadyLoad(w.base, queries, want, 50*time.Millisecond)
	w.t.Cleanup(func() { searches.stop(); searches.done.Wait() })
	return searches, startBookingLoad(w, flights, 1, 4)
}
