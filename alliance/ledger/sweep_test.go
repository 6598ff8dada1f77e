package ledger

import (
	"context"
	"slices"
	"testing"
	"time"

	"flightalliance/coord"
)

var t0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

// TestPlanSweep: the delegate releases a hold at its expiry, the machine after it one turn later,
// the fifth and later machines (and a machine not in line) four turns later; the wait is until the
// next hold falls due for this machine, at least 10 ms, at most a second while something was
// released (a failed release is tried again soon), an hour when nothing is open.
func TestPlanSweep(t *testing.T) {
	open := map[string]time.Time{
		"b": t0,
		"a": t0.Add(-time.Minute),
		"c": t0.Add(2 * time.Second),
	}
	cases := []struct {
		name    string
		now     time.Time
		rank    int
		open    map[string]time.Time
		release []string
		wait    time.Duration
	}{
		{"nothing open", t0, 0, nil, nil, time.Hour},
		{"delegate at the expiry", t0, 0, open, []string{"a", "b"}, time.Second},
		{"delegate, nothing due yet", t0.Add(-2 * time.Minute), 0, open, nil, time.Minute},
		{"second in line waits a turn", t0, 1, open, []string{"a"}, holdTurn},
		{"second in line after its turn", t0.Add(holdTurn), 1, open, []string{"a", "b"}, time.Second},
		{"fifth and later wait four turns", t0.Add(3 * holdTurn), 7, open, []string{"a"}, holdTurn},
		{"not in line waits four turns", t0.Add(4 * holdTurn), -1, open, []string{"a", "b"}, time.Second},
		{"waits until the next is due for it", t0.Add(-time.Second), 2, map[string]time.Time{"c": t0},
			nil, time.Second + 2*holdTurn},
		{"never less than 10 ms", t0, 0, map[string]time.Time{"c": t0.Add(time.Millisecond)}, nil, 10 * time.Millisecond},
	}
	for _, tc := range cases {
		got := planSweep(tc.now, tc.rank, tc.open)
		if !slices.Equal(got.release, tc.release) || got.wait != tc.wait {
			t.Errorf("%s: release %v wait %s, want %v %s", tc.name, got.release, got.wait, tc.release, tc.wait)
		}
	}
}

// fakeClock is a sweep's clock and timers under the test's control.
type fakeClock struct {
	now    time.Time
	waits  chan time.Duration // each wait the sweep asks for
	timers chan chan time.Time
}

func (c *fakeClock) after(d time.Duration) (<-chan time.Time, func() bool) {
	fire := make(chan time.Time, 1)
	c.waits <- d
	c.timers <- fire
	return fire, func() bool { return true }
}

// TestSweepRun drives the sweep's loop with a fake clock and fake releases: it releases what is
// due, sleeps until the next expiry, wakes on a timer or on a change of the open holds, and ends
// with its context.
func TestSweepRun(t *testing.T) {
	holds := NewHolds("star", time.Now)
	holds.mirror.Apply(coord.Event{Type: coord.EventResync, Children: []coord.Child{
		{Name: "star.due", Value: []byte(t0.Add(-time.Second).Format(time.RFC3339Nano))},
		{Name: "star.later", Value: []byte(t0.Add(time.Minute).Format(time.RFC3339Nano))},
	}})
	clock := &fakeClock{now: t0, waits: make(chan time.Duration, 1), timers: make(chan chan time.Time, 1)}
	released := make(chan string, 4)
	s := &Sweep{holds: holds, rank: func() int { return 0 }, now: func() time.Time { return clock.now },
		after: clock.after, release: func(_ context.Context, id string) { released <- id }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()

	expect := func(what string, wantRelease string, wantWait time.Duration) chan time.Time {
		t.Helper()
		deadline := time.After(10 * time.Second)
		if wantRelease != "" {
			select {
			case id := <-released:
				if id != wantRelease {
					t.Fatalf("%s: released %s, want %s", what, id, wantRelease)
				}
			case <-deadline:
				t.Fatalf("%s: nothing released", what)
			}
		}
		select {
		case d := <-clock.waits:
			if d != wantWait {
				t.Fatalf("%s: waits %s, want %s", what, d, wantWait)
			}
			return <-clock.timers
		case <-deadline:
			t.Fatalf("%s: the sweep never waited", what)
		}
		return nil
	}
	fire := expect("first pass", "star.due", time.Second)
	// The release was fake: the hold stays open until etcd says otherwise.
	holds.mirror.Apply(coord.Event{Type: coord.EventDeleted, Name: "star.due"})
	_ = fire
	expect("after the release is seen", "", time.Minute)
	clock.now = t0.Add(time.Minute)
	holds.mirror.Apply(coord.Event{Type: coord.EventCreated, Name: "star.new",
		Value: []byte(t0.Add(2 * time.Minute).Format(time.RFC3339Nano))})
	fire = expect("woken by a new hold", "star.later", time.Second)
	fire <- clock.now
	expect("woken by its timer", "star.later", time.Second)
	select {
	case id := <-released:
		t.Fatalf("released %s more than asked", id)
	default:
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the sweep did not end with its context")
	}
}
