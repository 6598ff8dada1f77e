package model

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Kind is what an operation does on a flight.
type Kind int

const (
	Reserve Kind = iota // reserve seats (POST /bookings with one leg)
	Cancel              // cancel a booking
	Read                // read the seats booked (linearizable)
)

func (k Kind) String() string { return [...]string{"reserve", "cancel", "read"}[k] }

// Input is what a client asked, on one flight ("seller/flight", the partition).
type Input struct {
	Kind     Kind
	Flight   string
	Capacity int    // the flight's seats for sale
	Seats    int    // reserve: seats asked
	ID       string // cancel: the booking
	Key      string // reserve: the idempotency key (for the visualization)
}

// Outcome is how an operation ended, as far as its client knows.
type Outcome int

const (
	OK      Outcome = iota // reserve booked, cancel cancelled, read answered
	Full                   // reserve: 409, not enough seats left
	Missing                // cancel: 404 for an acknowledged booking
	Unknown                // no definite answer before the client's deadline
)

// Output is what the client was answered.
type Output struct {
	Outcome Outcome
	ID      string // reserve ok: the booking
	Booked  int    // read ok: seats booked
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
func seatStep(st seatState, in Input, out Output) []seatState {
	switch in.Kind {
	case Reserve:
		fits := st.booked+in.Seats <= in.Capacity
		switch out.Outcome {
		case OK:
			if _, dup := st.liveSeats(out.ID); !fits || dup || out.ID == "" {
				return nil
			}
			return []seatState{st.with(out.ID, in.Seats)}
		case Full:
			if fits {
				return nil
			}
			return []seatState{st}
		case Unknown:
			if !fits {
				return []seatState{st}
			}
			return []seatState{st, {booked: st.booked + in.Seats, live: st.live}}
		}
	case Cancel:
		_, live := st.liveSeats(in.ID)
		switch out.Outcome {
		case OK:
			return []seatState{st.without(in.ID)} // a no-op when it was cancelled before
		case Unknown:
			if !live {
				return []seatState{st}
			}
			return []seatState{st, st.without(in.ID)}
		}
	case Read:
		if out.Outcome == OK && out.Booked == st.booked {
			return []seatState{st}
		}
	}
	return nil
}

// Seats is the per-flight model for porcupine.
var Seats = (&porcupine.NondeterministicModel{
	Partition: partitionByFlight,
	Init:      func() []any { return []any{seatState{}} },
	Step: func(state, input, output any) []any {
		var next []any
		for _, s := range seatStep(state.(seatState), input.(Input), output.(Output)) {
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
		f := op.Input.(Input).Flight
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
	in, out := input.(Input), output.(Output)
	var ask string
	switch in.Kind {
	case Reserve:
		ask = fmt.Sprintf("reserve(%s, %d of %d)", in.Flight, in.Seats, in.Capacity)
	case Cancel:
		ask = fmt.Sprintf("cancel(%s)", shortID(in.ID))
	case Read:
		ask = fmt.Sprintf("read(%s)", in.Flight)
	}
	switch out.Outcome {
	case Full:
		return ask + " → 409"
	case Missing:
		return ask + " → 404"
	case Unknown:
		return ask + " → unknown"
	}
	switch in.Kind {
	case Reserve:
		return ask + " → " + shortID(out.ID)
	case Read:
		return fmt.Sprintf("%s → %d", ask, out.Booked)
	}
	return ask + " → cancelled"
}

// shortID keeps the end of a booking id: enough to tell bookings apart in a picture.
func shortID(id string) string { return id[max(0, len(id)-6):] }
