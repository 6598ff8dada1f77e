package integration

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// The linearizability model of bookings, one flight at a time (porcupine partitions the history
// by flight, so each check stays small). A flight's state is the seats booked on it and the
// bookings the history knows to be live, with their seats:
//
//   - reserve(k) answered with a booking needs booked+k ≤ capacity and takes the seats;
//   - reserve(k) answered 409 needs booked+k > capacity and changes nothing;
//   - cancel(id) gives the booking's seats back, once: cancelling a cancelled booking is a no-op;
//     a 404 for a booking that was acknowledged is a lost booking, never legal;
//   - read-seats must answer exactly the seats booked.
//
// An operation whose outcome stayed unknown (timeouts, 503s, resets until the client's deadline)
// returns at math.MaxInt64, as porcupine wants, and steps nondeterministically: applied or not.
// A reserve applied without its client learning the id adds seats that nobody can cancel.

type seatOpKind int

const (
	opReserve seatOpKind = iota
	opCancel
	opRead
)

func (k seatOpKind) String() string { return [...]string{"reserve", "cancel", "read"}[k] }

// seatInput is what a client asked, on one flight ("seller/flight", the partition).
type seatInput struct {
	kind     seatOpKind
	flight   string
	capacity int    // the flight's seats for sale
	seats    int    // reserve: seats asked
	id       string // cancel: the booking
	key      string // reserve: the idempotency key (for the visualization)
}

type seatOutcome int

const (
	outOK      seatOutcome = iota // reserve booked, cancel cancelled, read answered
	outFull                       // reserve: 409, not enough seats left
	outMissing                    // cancel: 404 for an acknowledged booking
	outUnknown                    // no definite answer before the client's deadline
)

// seatOutput is what the client was answered.
type seatOutput struct {
	outcome seatOutcome
	id      string // reserve ok: the booking
	booked  int    // read ok: seats booked
}

// seatState is one possible state of a flight. It is comparable, so states merge with ==.
type seatState struct {
	booked int
	live   string // the live bookings the history knows, sorted, "id:seats,id:seats"
}

func (s seatState) liveSeats(id string) (int, bool) {
	for _, e := range splitLive(s.live) {
		if name, k, _ := strings.Cut(e, ":"); name == id {
			n, _ := strconv.Atoi(k)
			return n, true
		}
	}
	return 0, false
}

func (s seatState) with(id string, seats int) seatState {
	live := append(splitLive(s.live), id+":"+strconv.Itoa(seats))
	slices.Sort(live)
	return seatState{booked: s.booked + seats, live: strings.Join(live, ",")}
}

func (s seatState) without(id string) seatState {
	n, _ := s.liveSeats(id)
	live := slices.DeleteFunc(splitLive(s.live), func(e string) bool { return strings.HasPrefix(e, id+":") })
	return seatState{booked: s.booked - n, live: strings.Join(live, ",")}
}

func splitLive(live string) []string {
	if live == "" {
		return nil
	}
	return strings.Split(live, ",")
}

// seatStep gives every state the flight can be in after the operation, none if the answer is
// impossible from st.
func seatStep(st seatState, in seatInput, out seatOutput) []seatState {
	switch in.kind {
	case opReserve:
		fits := st.booked+in.seats <= in.capacity
		switch out.outcome {
		case outOK:
			if _, dup := st.liveSeats(out.id); !fits || dup || out.id == "" {
				return nil
			}
			return []seatState{st.with(out.id, in.seats)}
		case outFull:
			if fits {
				return nil
			}
			return []seatState{st}
		case outUnknown:
			if !fits {
				return []seatState{st}
			}
			return []seatState{st, {booked: st.booked + in.seats, live: st.live}}
		}
	case opCancel:
		_, live := st.liveSeats(in.id)
		switch out.outcome {
		case outOK:
			return []seatState{st.without(in.id)} // a no-op when it was cancelled before
		case outUnknown:
			if !live {
				return []seatState{st}
			}
			return []seatState{st, st.without(in.id)}
		}
	case opRead:
		if out.outcome == outOK && out.booked == st.booked {
			return []seatState{st}
		}
	}
	return nil
}

// seatModel is the per-flight model for porcupine.
var seatModel = (&porcupine.NondeterministicModel{
	Partition: partitionByFlight,
	Init:      func() []any { return []any{seatState{}} },
	Step: func(state, input, output any) []any {
		var next []any
		for _, s := range seatStep(state.(seatState), input.(seatInput), output.(seatOutput)) {
			next = append(next, s)
		}
		return next
	},
	Hash: func(state any) uint64 {
		s := state.(seatState)
		h := fnv.New64a()
		fmt.Fprintf(h, "%d|%s", s.booked, s.live)
		return h.Sum64()
	},
	DescribeOperation: describeSeatOp,
	DescribeState: func(state any) string {
		s := state.(seatState)
		return fmt.Sprintf("booked %d [%s]", s.booked, s.live)
	},
}).ToModel()

func partitionByFlight(history []porcupine.Operation) [][]porcupine.Operation {
	byFlight := map[string][]porcupine.Operation{}
	var order []string
	for _, op := range history {
		f := op.Input.(seatInput).flight
		if _, seen := byFlight[f]; !seen {
			order = append(order, f)
		}
		byFlight[f] = append(byFlight[f], op)
	}
	out := make([][]porcupine.Operation, 0, len(order))
	for _, f := range order {
		out = append(out, byFlight[f])
	}
	return out
}

func describeSeatOp(input, output any) string {
	in, out := input.(seatInput), output.(seatOutput)
	var ask string
	switch in.kind {
	case opReserve:
		ask = fmt.Sprintf("reserve(%s, %d of %d)", in.flight, in.seats, in.capacity)
	case opCancel:
		ask = fmt.Sprintf("cancel(%s)", shortID(in.id))
	case opRead:
		ask = fmt.Sprintf("read(%s)", in.flight)
	}
	switch out.outcome {
	case outFull:
		return ask + " → 409"
	case outMissing:
		return ask + " → 404"
	case outUnknown:
		return ask + " → unknown"
	}
	switch in.kind {
	case opReserve:
		return ask + " → " + shortID(out.id)
	case opRead:
		return fmt.Sprintf("%s → %d", ask, out.booked)
	}
	return ask + " → cancelled"
}

// shortID keeps the end of a booking id: enough to tell bookings apart in a picture.
func shortID(id string) string { return id[max(0, len(id)-6):] }

// bookingHistory records operations from concurrent clients, on one monotonic clock.
type bookingHistory struct {
	mu    sync.Mutex
	start time.Time
	ops   []porcupine.Operation
}

func newBookingHistory() *bookingHistory { return &bookingHistory{start: time.Now()} }

// now is the history's clock: nanoseconds since it started, monotonic.
func (h *bookingHistory) now() int64 { return int64(time.Since(h.start)) }

// add records one operation; an unknown outcome returns at math.MaxInt64.
func (h *bookingHistory) add(client int, in seatInput, call int64, out seatOutput, ret int64) {
	if out.outcome == outUnknown {
		ret = math.MaxInt64
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops = append(h.ops, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
}

func (h *bookingHistory) operations() []porcupine.Operation {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.ops)
}

// checkBookingHistory checks the history with porcupine. When it is not linearizable (or the
// check timed out), the visualization, with the annotations (the faults), is written to the
// kept-logs directory of the test and the test fails naming it.
func checkBookingHistory(t testing.TB, ops []porcupine.Operation, timeout time.Duration, notes ...porcupine.Annotation) porcupine.CheckResult {
	t.Helper()
	res, info := porcupine.CheckOperationsVerbose(seatModel, ops, timeout)
	if res == porcupine.Ok {
		return res
	}
	info.AddAnnotations(notes)
	dir := keptLogsDir(t)
	path := filepath.Join(dir, "bookings-linearizability.html")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Errorf("keeping the visualization: %v", err)
	} else if err := porcupine.VisualizePath(seatModel, info, path); err != nil {
		t.Errorf("writing the visualization: %v", err)
	}
	t.Errorf("booking history of %d operations is %s (not linearizable, or not decided in %v); visualization: %s",
		len(ops), res, timeout, path)
	return res
}

// keptLogsDir is where a failed test keeps its logs (the same place startProc copies them to).
func keptLogsDir(t testing.TB) string {
	return filepath.Join(os.TempDir(), "flightalliance-failed", strings.ReplaceAll(t.Name(), "/", "_"))
}

// historyCounts summarizes a history per kind and outcome, for the test log.
func historyCounts(ops []porcupine.Operation) string {
	count := map[string]int{}
	for _, op := range ops {
		out := op.Output.(seatOutput)
		name := op.Input.(seatInput).kind.String()
		switch out.outcome {
		case outOK:
			name += " ok"
		case outFull:
			name += " 409"
		case outMissing:
			name += " 404"
		case outUnknown:
			name += " unknown"
		}
		count[name]++
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, count[k]))
	}
	return strings.Join(parts, ", ")
}
