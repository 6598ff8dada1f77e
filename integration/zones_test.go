package integration

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
)

// sixInThreeZones is an alliance of six machines, two in each of three zones, m1 and m4 in z1.
var sixInThreeZones = map[string]string{"m1": "z1", "m4": "z1", "m2": "z2", "m5": "z2", "m3": "z3", "m6": "z3"}

// TestReplicasSurviveTwoFailuresAndAZone runs six machines in three zones with three copies of
// every seller, securely and with the default timers (a dead member is removed after 10 s), under
// steady searches through the search server:
//   - the five etcd voters span the three zones (round-robin), at most two in one;
//   - kill -9 two machines of different zones at the same instant: every answer stays complete
//     and equal to the reference, the placement settles with every seller in three zones, etcd
//     removes both after its grace, and they come back with their command lines, the voters
//     spread over the zones again;
//   - kill -9 a whole zone (both its machines, the delegate among them): every answer stays
//     complete, the etcd voters of the other zones keep a quorum so bookings succeed at once and
//     after the zone's members are removed, and the zone comes back the same way.
func TestReplicasSurviveTwoFailuresAndAZone(t *testing.T) {
	w := newBookingWorld(t, map[string][]string{
		"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}, "m4": {"BA"}, "m5": {"KE", "QF"}, "m6": {"SK"},
	}, allianceOpts{extra: []string{"--replicas", "3"}, zones: sixInThreeZones}, nil)
	a := w.a
	bookable := directFlights(a.data, "UA", 3)
	if len(bookable) < 3 {
		t.Fatalf("only %d direct UA flights to book", len(bookable))
	}
	w.waitBookable(bookable[0], 120*time.Second)
	for _, n := range a.live() {
		st, err := a.status(n)
		if err != nil || st.Replicas != 3 || st.Zone != sixInThreeZones[n] {
			t.Fatalf("/status of %s: replicas %d, zone %q, %v; want 3 and %s", n, st.Replicas, st.Zone, err, sixInThreeZones[n])
		}
	}
	votersSpanZones := func(what string) {
		t.Helper()
		took := framework.Eventually(t, 90*time.Second, what+": five etcd voters over the three zones, at most two in one", func() error {
			voters, _, err := a.etcdRoles()
			if err != nil {
				return err
			}
			perZone := map[string]int{}
			for _, v := range voters {
				perZone[sixInThreeZones[v]]++
			}
			if len(voters) != 5 || len(perZone) != 3 || slices.Max(slices.Collect(maps.Values(perZone))) > 2 {
				return fmt.Errorf("voters %v: %v per zone", voters, perZone)
			}
			return nil
		})
		t.Logf("%s: voters span the zones (%v)", what, took.Round(time.Millisecond))
	}
	votersSpanZones("bootstrap") // a zone's loss leaves three voters of five
	queries, want := a.readyQueries(w.base, 4)
	load := startSteadyLoad(w.base, queries, want, 100*time.Millisecond)
	expectComplete := func(what string, since time.Time) {
		t.Helper()
		answers := load.since(since)
		counts, p50, p99, bad := summarize(answers)
		t.Logf("%s: %d searches: %d complete, %d incomplete, %d wrong, %d errors; p50 %v, p99 %v", what, len(answers),
			counts[answerComplete], counts[answerIncomplete], counts[answerWrong], counts[answerError],
			p50.Round(time.Millisecond), p99.Round(time.Millisecond))
		if len(answers) == 0 || counts[answerComplete] != len(answers) {
			t.Errorf("%s: not every answer complete and correct: %v", what, bad)
		}
	}

	// outage kills victims at the same instant, runs whileDown, waits until etcd removed them
	// (past the dead-member grace), runs whenRemoved, restarts them with their command lines and
	// checks that the alliance is whole again and that no answer meanwhile was incomplete.
	outage := func(what string, victims []string, whileDown, whenRemoved func()) {
		t.Helper()
		start := time.Now()
		for _, v := range victims {
			a.kill(v)
		}
		whileDown()
		took := a.waitSettled(90 * time.Second)
		t.Logf("%s: settled after %v", what, took.Round(time.Millisecond))
		a.waitMembers(60 * time.Second)
		whenRemoved()
		for _, v := range victims {
			a.restart(v)
		}
		took = a.waitSettled(120 * time.Second)
		t.Logf("%s, removed, back with their command lines: settled after %v", what, took.Round(time.Millisecond))
		a.waitMembers(60 * time.Second)
		votersSpanZones(what + " back")
		expectComplete(what, start)
	}
	book := func(what string, f flight.Flight) {
		b := w.mustBook(fmt.Sprintf("%s-%d", what, time.Now().UnixNano()), bookRequest{Alliance: "star", Legs: []legRef{refOf(f)}, Seats: 1}, 30*time.Second)
		if b.Status != "confirmed" {
			t.Errorf("booking %s %s: status %q", what, b.ID, b.Status)
		}
	}
	nothing := func() {}

	outage("kill -9 m2 (z2) and m6 (z3)", []string{"m2", "m6"}, nothing, nothing)
	// A whole zone, the delegate among its machines: the other zones' voters keep a quorum, while
	// the dead voters still count and after they are removed (then the four left all vote).
	outage("kill -9 zone z1 (m1, m4)", []string{"m1", "m4"},
		func() { book("zone-down", bookable[0]); book("zone-down", bookable[1]) },
		func() { book("zone-removed", bookable[2]) })
	load.finish()
	if got := w.booked(bookable[0]); got != 1 {
		t.Errorf("seats booked on %s %s: %d, want 1", bookable[0].Seller, bookable[0].Number, got)
	}
}
