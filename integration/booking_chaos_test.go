package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/flight"
	"flightalliance/tests/robustness/model"
)

// TestBookingsLinearizable runs 4 clients reserving, cancelling and reading seats on three small
// flights (contention: a few seats each) through the search server of a 3-machine alliance,
// while one machine at a time — often the delegate — is killed with SIGKILL and restarted,
// paused with SIGSTOP, or cut off from the others (and now and then two are paused: no quorum),
// for FA_BOOKING_CHAOS (default 20s; `make
// chaos` runs minutes; FA_CHAOS_SEED=N replays the faults). Afterwards everything is healed,
// operations left unknown are retried with their keys, the seats are read once more, and the
// history must be linearizable per flight (porcupine; the picture goes to the kept-logs
// directory when it is not), the booked-seat counters in etcd must equal the seats of the live
// bookings, and no answer may break the contract (a 500, a 404 for an acknowledged booking…).
func TestBookingsLinearizable(t *testing.T) {
	duration, seed := chaosSettings(t, "FA_BOOKING_CHAOS")
	t.Logf("booking chaos for %v with FA_CHAOS_SEED=%d", duration, seed)
	rng := rand.New(rand.NewPCG(seed, 1))

	var flights []flight.Flight
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{net: true},
		fewSeats(&flights), "--registration-ttl", "10s")
	for i := range flights {
		flights[i] = w.flight(flights[i])
	}
	w.waitBookable(flights[0], 90*time.Second)

	load := startBookingLoad(w, flights, seed, 4)
	notes := injectBookingFaults(t, w.a, rng, duration, load.h)
	// The fault loop undid its last fault; finish heals, settles and checks.
	load.finish(t, duration, notes...)
}

// injectBookingFaults hits one machine at a time, half the time the acting delegate: SIGKILL
// then a restart with the same command line, SIGSTOP then SIGCONT, or a partition then a heal,
// each for up to a few seconds — and now and then pauses two machines at once, so that the
// alliance has no quorum for a while. It waits for the machines to be back before the next
// fault, and returns the faults as annotations for the history's picture.
func injectBookingFaults(t *testing.T, a *testAlliance, rng *rand.Rand, duration time.Duration, h *model.History) []porcupine.Annotation {
	var notes []porcupine.Annotation
	count := map[string]int{}
	end := time.Now().Add(duration)
	for time.Now().Before(end) {
		time.Sleep(time.Duration(300+rng.IntN(1200)) * time.Millisecond)
		live := a.live()
		victim := live[rng.IntN(len(live))]
		if d := a.actingDelegate(live); d != "" && rng.IntN(2) == 0 {
			victim = d
		}
		victims := []string{victim}
		kind := []string{"kill", "pause", "partition", "kill", "pause", "partition", "pause-two"}[rng.IntN(7)]
		if kind == "pause-two" { // no quorum: nothing can be booked until they are back
			others := slices.DeleteFunc(slices.Clone(live), func(n string) bool { return n == victim })
			victims = append(victims, others[rng.IntN(len(others))])
		}
		hold := time.Duration(200+rng.IntN(4000)) * time.Millisecond
		if kind == "pause-two" {
			hold += 2 * time.Second // longer than a client waits for an answer: outcomes left unknown
		}
		from := h.Now()
		for _, v := range victims {
			switch kind {
			case "kill":
				a.kill(v)
			case "pause", "pause-two":
				a.pause(v)
			case "partition":
				a.partition(v)
			}
		}
		time.Sleep(hold) // the fault's duration
		for _, v := range victims {
			switch kind {
			case "kill":
				a.restart(v)
			case "pause", "pause-two":
				a.resume(v)
			case "partition":
				a.heal(v)
			}
		}
		until := h.Now()
		for _, v := range victims {
			if err := waitBack(a, v, 60*time.Second); err != nil {
				t.Fatalf("after %s of %v for %v: %v", kind, victims, hold, err)
			}
		}
		count[kind]++
		what := kind + " " + strings.Join(victims, ",")
		t.Logf("%s for %v; back %v later", what, hold.Round(time.Millisecond), time.Duration(h.Now()-until).Round(time.Millisecond))
		notes = append(notes, porcupine.Annotation{Tag: "faults", Start: from, End: until, Description: what, BackgroundColor: "#fdd"})
	}
	t.Logf("faults: %d kills, %d pauses, %d partitions, %d pauses of two machines (no quorum)",
		count["kill"], count["pause"], count["partition"], count["pause-two"])
	return notes
}

// waitBack waits until the machine answers /status and is not joining any more.
func waitBack(a *testAlliance, name string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		if err := a.crashed(); err != nil {
			return err
		}
		st, err := a.status(name)
		if err == nil && !st.Joining {
			return nil
		}
		last = fmt.Errorf("status %+v, %v", st, err)
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("not back within %v: %v", timeout, last)
}

// checkLedger compares, in etcd, every flight's booked-seat counter with the seats of the live
// (confirmed or held) bookings on it.
func checkLedger(t *testing.T, w *bookingWorld, flights []flight.Flight) {
	t.Helper()
	cli := w.a.etcd()
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cli.Get(ctx, "/alliances/star/bookings/", clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]int{}
	for _, kv := range resp.Kvs {
		var b struct {
			Legs []struct {
				Seller string `json:"seller"`
				Flight string `json:"flight"`
			} `json:"legs"`
			Seats  int    `json:"seats"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(kv.Value, &b); err != nil {
			t.Errorf("%s: %v", kv.Key, err)
			continue
		}
		if b.Status == "confirmed" || b.Status == "held" {
			for _, l := range b.Legs {
				live[l.Seller+"/"+l.Flight] += b.Seats
			}
		}
	}
	var report []string
	for _, f := range flights {
		counter := w.etcdBooked(f)
		if counter != live[flightName(f)] || counter > f.Seats {
			t.Errorf("%s: counter %d, live bookings take %d, capacity %d", f.Number, counter, live[flightName(f)], f.Seats)
		}
		report = append(report, fmt.Sprintf("%s %d/%d", f.Number, counter, f.Seats))
	}
	t.Logf("etcd at the end (%d booking records): %s", len(resp.Kvs), strings.Join(report, ", "))
}
