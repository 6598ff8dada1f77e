package integration

import (
	"testing"
	"time"
)

// TestGracefulLeave sends SIGTERM to a machine: it hands its sellers over, exits 0, and the
// answers stay complete and correct throughout.
func TestGracefulLeave(t *testing.T) {
	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}})
	a.waitSettled(90 * time.Second)
	queries := busyQueries(a.activeData(), 3)

	m2 := a.machines["m2"]
	start := time.Now()
	a.leave("m2")
	if code := m2.proc.Wait(45 * time.Second); code != 0 {
		t.Fatalf("m2 exited with %d after SIGTERM, want 0", code)
	}
	t.Logf("m2 left in %v", time.Since(start).Round(time.Millisecond))
	// It waited for the hand-over round: the copies it held are already placed elsewhere.
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatalf("right after m2 left: %v", err)
	}
	a.waitSettled(30 * time.Second)
	a.waitMembers(30 * time.Second)

	// The same command line brings it back.
	a.restart("m2")
	a.waitSettled(90 * time.Second)
	if err := a.checkAnswers("m1", queries); err != nil {
		t.Fatal(err)
	}
}
