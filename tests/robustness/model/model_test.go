package model

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// Hand-made histories for the booking model: these run without processes. Times are in
// arbitrary units; "never" is an operation whose outcome stayed unknown.

const never = math.MaxInt64

type hop struct {
	client    int
	call, ret int64
	in        Input
	out       Output
}

func reserve(flight string, capacity, seats int) Input {
	return Input{Kind: Reserve, Flight: flight, Capacity: capacity, Seats: seats}
}
func cancelOf(flight, id string) Input {
	return Input{Kind: Cancel, Flight: flight, ID: id}
}
func readOf(flight string) Input { return Input{Kind: Read, Flight: flight} }

func booked(id string) Output { return Output{Outcome: OK, ID: id} }
func reads(n int) Output      { return Output{Outcome: OK, Booked: n} }

var (
	full      = Output{Outcome: Full}
	cancelled = Output{Outcome: OK}
	missing   = Output{Outcome: Missing}
	unknown   = Output{Outcome: Unknown}
)

func historyOf(ops ...hop) []porcupine.Operation {
	out := make([]porcupine.Operation, len(ops))
	for i, o := range ops {
		out[i] = porcupine.Operation{ClientId: o.client, Input: o.in, Call: o.call, Output: o.out, Return: o.ret}
	}
	return out
}

func TestBookingModelLinearizable(t *testing.T) {
	const f, g = "LY/LY001", "UA/UA007"
	for name, h := range map[string][]porcupine.Operation{
		"sequential reserve, 409, cancel, reserve": historyOf(
			hop{0, 0, 1, reserve(f, 5, 2), booked("A")},
			hop{0, 2, 3, reserve(f, 5, 2), booked("B")},
			hop{0, 4, 5, reserve(f, 5, 2), full},
			hop{0, 6, 7, readOf(f), reads(4)},
			hop{0, 8, 9, cancelOf(f, "A"), cancelled},
			hop{0, 10, 11, readOf(f), reads(2)},
			hop{0, 12, 13, reserve(f, 5, 3), booked("C")},
			hop{0, 14, 15, readOf(f), reads(5)},
		),
		"two racers for the last seat, one wins": historyOf(
			hop{0, 0, 10, reserve(f, 1, 1), full},
			hop{1, 1, 5, reserve(f, 1, 1), booked("A")},
			hop{2, 11, 12, readOf(f), reads(1)},
		),
		"a read during a reserve sees either count": historyOf(
			hop{0, 0, 10, reserve(f, 3, 2), booked("A")},
			hop{1, 1, 2, readOf(f), reads(0)},
			hop{2, 3, 4, readOf(f), reads(2)},
		),
		"an unknown reserve that took effect": historyOf(
			hop{0, 0, never, reserve(f, 2, 1), unknown},
			hop{1, 5, 6, reserve(f, 2, 2), full},
			hop{1, 7, 8, readOf(f), reads(1)},
		),
		"an unknown reserve that did not": historyOf(
			hop{0, 0, never, reserve(f, 2, 1), unknown},
			hop{1, 5, 6, reserve(f, 2, 2), booked("A")},
			hop{1, 7, 8, readOf(f), reads(2)},
		),
		"an unknown reserve taking effect late": historyOf(
			hop{0, 0, never, reserve(f, 3, 1), unknown},
			hop{1, 5, 6, readOf(f), reads(0)},
			hop{1, 7, 8, readOf(f), reads(1)},
		),
		"cancelling twice is a no-op": historyOf(
			hop{0, 0, 1, reserve(f, 2, 2), booked("A")},
			hop{0, 2, 5, cancelOf(f, "A"), cancelled},
			hop{1, 3, 6, cancelOf(f, "A"), cancelled},
			hop{0, 7, 8, cancelOf(f, "A"), cancelled},
			hop{0, 9, 10, readOf(f), reads(0)},
		),
		"an unknown cancel, applied or not": historyOf(
			hop{0, 0, 1, reserve(f, 2, 1), booked("A")},
			hop{0, 2, never, cancelOf(f, "A"), unknown},
			hop{1, 3, 4, readOf(f), reads(1)},
			hop{1, 5, 6, readOf(f), reads(0)},
		),
		"a retried reserve acknowledged after the flight filled": historyOf(
			// The first attempt committed before the 409 of the other client; its retry
			// answered the same booking much later.
			hop{0, 0, 20, reserve(f, 2, 2), booked("A")},
			hop{1, 5, 6, reserve(f, 2, 1), full},
		),
		"two flights, each fine": historyOf(
			hop{0, 0, 1, reserve(f, 1, 1), booked("A")},
			hop{1, 0, 1, reserve(g, 1, 1), booked("B")},
			hop{0, 2, 3, reserve(f, 1, 1), full},
			hop{1, 2, 3, readOf(g), reads(1)},
		),
	} {
		t.Run(name, func(t *testing.T) {
			if res := Check(t, h, 10*time.Second, t.TempDir()); res != porcupine.Ok {
				t.Fatalf("want linearizable, got %s", res)
			}
		})
	}
}

func TestBookingModelNotLinearizable(t *testing.T) {
	const f, g = "LY/LY001", "UA/UA007"
	for name, h := range map[string][]porcupine.Operation{
		"oversold, one after the other": historyOf(
			hop{0, 0, 1, reserve(f, 3, 2), booked("A")},
			hop{1, 2, 3, reserve(f, 3, 2), booked("B")},
		),
		"oversold by racers": historyOf(
			hop{0, 0, 10, reserve(f, 1, 1), booked("A")},
			hop{1, 0, 10, reserve(f, 1, 1), booked("B")},
		),
		"an unknown reserve does not excuse an oversell": historyOf(
			hop{0, 0, never, reserve(f, 2, 2), unknown},
			hop{1, 1, 2, reserve(f, 2, 1), booked("A")},
			hop{1, 3, 4, readOf(f), reads(3)},
		),
		"a lost booking: the read misses its seats": historyOf(
			hop{0, 0, 1, reserve(f, 5, 2), booked("A")},
			hop{1, 2, 3, readOf(f), reads(0)},
		),
		"a lost booking: cancel answers 404": historyOf(
			hop{0, 0, 1, reserve(f, 5, 2), booked("A")},
			hop{0, 2, 3, cancelOf(f, "A"), missing},
		),
		"a stale read after the booking was acknowledged": historyOf(
			hop{0, 0, 10, reserve(f, 5, 1), booked("A")},
			hop{1, 20, 30, readOf(f), reads(0)},
		),
		"a stale read after a cancel": historyOf(
			hop{0, 0, 1, reserve(f, 5, 2), booked("A")},
			hop{0, 2, 3, cancelOf(f, "A"), cancelled},
			hop{1, 4, 5, readOf(f), reads(2)},
		),
		"409 with seats left": historyOf(
			hop{0, 0, 1, reserve(f, 5, 2), booked("A")},
			hop{1, 2, 3, reserve(f, 5, 3), full},
		),
		"a retry booked twice": historyOf(
			hop{0, 0, 5, reserve(f, 5, 1), booked("A")},
			hop{0, 6, 7, readOf(f), reads(2)},
		),
		"one id answered to two reserves": historyOf(
			hop{0, 0, 1, reserve(f, 5, 1), booked("A")},
			hop{1, 2, 3, reserve(f, 5, 1), booked("A")},
		),
		"a double cancel gives the seats back twice": historyOf(
			hop{0, 0, 1, reserve(f, 4, 2), booked("A")},
			hop{0, 2, 3, reserve(f, 4, 2), booked("B")},
			hop{0, 4, 5, cancelOf(f, "A"), cancelled},
			hop{0, 6, 7, cancelOf(f, "A"), cancelled},
			hop{1, 8, 9, readOf(f), reads(0)},
		),
		"one bad flight among good ones": historyOf(
			hop{0, 0, 1, reserve(g, 1, 1), booked("B")},
			hop{0, 2, 3, readOf(g), reads(1)},
			hop{1, 0, 1, reserve(f, 1, 1), booked("A")},
			hop{1, 2, 3, reserve(f, 1, 1), booked("C")},
		),
	} {
		t.Run(name, func(t *testing.T) {
			res, _ := porcupine.CheckOperationsVerbose(Seats, h, 10*time.Second)
			if res != porcupine.Illegal {
				t.Fatalf("want not linearizable, got %s", res)
			}
		})
	}
}

// A failed check leaves porcupine's picture in the directory it is given (a test's kept logs).
func TestBookingModelVisualization(t *testing.T) {
	h := historyOf(
		hop{0, 0, 1, reserve("LY/LY001", 1, 1), booked("AAAAAAAA")},
		hop{1, 2, 3, reserve("LY/LY001", 1, 1), booked("BBBBBBBB")},
	)
	inner := &recordingTB{TB: t, name: t.Name() + "_inner"}
	dir := t.TempDir()
	if res := Check(inner, h, 10*time.Second, dir); res != porcupine.Illegal || !inner.failed {
		t.Fatalf("check: %s, failed %v", res, inner.failed)
	}
	path := filepath.Join(dir, "bookings-linearizability.html")
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "reserve(LY/LY001, 1 of 1)") || !strings.Contains(inner.msg, path) {
		t.Fatalf("the visualization %s does not show the operations, or the failure does not name it: %q", path, inner.msg)
	}
}

// recordingTB records a failure instead of failing the test that wraps it.
type recordingTB struct {
	testing.TB
	name   string
	failed bool
	msg    string
}

func (r *recordingTB) Name() string { return r.name }
func (r *recordingTB) Errorf(format string, args ...any) {
	r.failed = true
	r.msg += strings.TrimSpace(fmt.Sprintf(format, args...)) + "\n"
}
func (r *recordingTB) Helper() {}
