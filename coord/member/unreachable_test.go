package member

import (
	"errors"
	"testing"
	"time"
)

// The reconciler logs why a member is unreachable when it starts failing — once while it stays
// down within its grace (past it the removal line speaks), and at most once per grace when it
// flaps.
func TestUnreachablesLogOncePerGrace(t *testing.T) {
	const grace = 10 * time.Second
	t0 := time.Unix(1_700_000_000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	refused := errors.New("connection refused")
	u := newUnreachables()
	steps := []struct {
		at      time.Duration
		err     error
		wantLog bool
		wantFor time.Duration
	}{
		{0, nil, false, 0},
		{2 * time.Second, refused, true, 2 * time.Second}, // starts failing: log
		{4 * time.Second, refused, false, 4 * time.Second},
		{10 * time.Second, refused, false, 10 * time.Second},
		{11 * time.Second, refused, false, 11 * time.Second}, // past the grace: the removal line's turn
		{13 * time.Second, nil, false, 0},                    // answers again
		{14 * time.Second, refused, true, time.Second},       // a new outage, a grace after the last log
		{15 * time.Second, nil, false, 0},
		{16 * time.Second, refused, false, time.Second}, // flapping: 2s after the last log
		{17 * time.Second, nil, false, 0},
		{24 * time.Second, refused, true, 7 * time.Second}, // a grace after the last log
	}
	for _, s := range steps {
		if got := u.observe(7, at(s.at), s.err, grace); got != s.wantLog {
			t.Errorf("at %v (err %v): log = %v, want %v", s.at, s.err, got, s.wantLog)
		}
		if got := u.downFor(7, at(s.at)); got != s.wantFor {
			t.Errorf("at %v: down for %v, want %v", s.at, got, s.wantFor)
		}
		if got := u.lastErr(7); got != s.err {
			t.Errorf("at %v: last error %v, want %v", s.at, got, s.err)
		}
	}
}

// A member first seen failing counts as down from that moment; forgotten members and a reset
// start afresh.
func TestUnreachablesClocks(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	u := newUnreachables()
	u.observe(1, t0, errors.New("timeout"), time.Second)
	u.observe(2, t0, nil, time.Second)
	if d := u.downFor(1, t0.Add(3*time.Second)); d != 3*time.Second {
		t.Fatalf("down for %v, want 3s since first seen", d)
	}
	u.keep(map[uint64]bool{2: true})
	if d, err := u.downFor(1, t0.Add(5*time.Second)), u.lastErr(1); d != 0 || err != nil {
		t.Fatalf("removed member still tracked: %v %v", d, err)
	}
	u.reset()
	if !u.observe(2, t0.Add(time.Second), errors.New("timeout"), time.Hour) {
		t.Fatal("after a reset, the first failure is not logged")
	}
	if d := u.downFor(2, t0.Add(2*time.Second)); d != time.Second {
		t.Fatalf("after a reset, down for %v, want 1s since the leader first saw it", d)
	}
}

// TestUnreachablesAfterAPause: passes a period apart keep the clocks; a pass that begins longer
// than maxGap after the last one ended (the leader was paused, or starved) starts them afresh,
// so a member that fails its first probe after the pause is not down for the pause's length.
func TestUnreachablesAfterAPause(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	const period, grace = time.Second, 5 * time.Second
	u := newUnreachables()
	at := t0
	for range 3 {
		if _, fresh := u.resume(at, maxIdle(period)); fresh {
			t.Fatalf("passes a period apart start afresh at %v", at.Sub(t0))
		}
		u.observe(7, at, nil, grace)
		u.ran(at.Add(100 * time.Millisecond))
		at = at.Add(period)
	}
	// m7 fails at a pass; the next passes come on time: its clock runs.
	u.resume(at, maxIdle(period))
	u.observe(7, at, errors.New("refused"), grace)
	u.ran(at)
	if d := u.downFor(7, at.Add(period)); d != period+period {
		t.Fatalf("down for %v after a pass on time, want %v since it was last seen", d, 2*period)
	}
	// The leader is paused for 8 s; at its first pass after, m7 fails once.
	resumed := at.Add(8 * time.Second)
	idle, fresh := u.resume(resumed, maxIdle(period))
	if !fresh || idle != 8*time.Second {
		t.Fatalf("after an 8 s pause: fresh %v, idle %v", fresh, idle)
	}
	u.observe(7, resumed, errors.New("refused"), grace)
	if d := u.downFor(7, resumed); d > grace {
		t.Fatalf("down for %v at the first probe after the pause: it would be removed without a grace", d)
	}
	if d := u.downFor(7, resumed.Add(grace+time.Second)); d != grace+time.Second {
		t.Fatalf("down for %v a grace after the pause, want %v", d, grace+time.Second)
	}
}
