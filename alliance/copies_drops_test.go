package alliance

import (
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/placement"
)

// TestPendingDropsKeepACopyTheViewDoesNotShowElsewhere: x gave LY's backup to o, whose publish
// failed; when the grace period is over the view shows LY on a alone, so x keeps its copy (and
// says so once) rather than leave one copy where the plan keeps two. It drops it as soon as o
// shows LY, when a later round has moved the copy on to a machine that shows it, or when o is
// gone.
func TestPendingDropsKeepACopyTheViewDoesNotShowElsewhere(t *testing.T) {
	r1 := placement.Result{Assignments: []placement.Assignment{
		{Name: "a", Primaries: []string{"LY"}, Backups: []string{}},
		{Name: "o", Primaries: []string{}, Backups: []string{"LY"}},
		{Name: "x", Primaries: []string{}, Backups: []string{}},
	}}
	stale := []machineEntry{{Name: "a", Primaries: []string{"LY"}}, {Name: "o"}, {Name: "x", Backups: []string{"LY"}}}
	grace := epoch.Add(10 * time.Second)
	pending := func() *pendingDrops {
		p := &pendingDrops{self: "x"}
		p.committed(r1)
		p.add(1, r1, []string{"LY"}, grace)
		return p
	}

	p := pending()
	if due := p.due(stale, grace); len(due) != 0 {
		t.Fatalf("dropped at the end of the grace period though no machine but a shows LY: %+v", due)
	}
	if kept := p.takeNewlyKept(); !slices.Equal(kept, []string{"LY"}) {
		t.Errorf("kept %v, want LY said once", kept)
	}
	if next, ok := p.next(); !ok || !next.Equal(grace.Add(recheck)) {
		t.Errorf("looked at again at %v (%v), want a second later", next, ok)
	}
	if due := p.due(stale, grace.Add(recheck)); len(due) != 0 || len(p.takeNewlyKept()) != 0 {
		t.Fatalf("a second later: dropped %+v, or said again", due)
	}
	published := []machineEntry{{Name: "a", Primaries: []string{"LY"}}, {Name: "o", Backups: []string{"LY"}}, {Name: "x", Backups: []string{"LY"}}}
	if due := p.due(published, grace.Add(2*recheck)); len(due) != 1 || !slices.Equal(due[0].codes, []string{"LY"}) {
		t.Fatalf("o shows LY: %+v, want LY dropped", due)
	}
	if _, ok := p.next(); ok {
		t.Error("still waiting after the drop")
	}

	// A later round moved LY's backup from o to p, which shows it: two copies elsewhere.
	p = pending()
	p.committed(placement.Result{Assignments: []placement.Assignment{
		{Name: "a", Primaries: []string{"LY"}}, {Name: "o"}, {Name: "p", Backups: []string{"LY"}}, {Name: "x"},
	}})
	movedOn := []machineEntry{{Name: "a", Primaries: []string{"LY"}}, {Name: "o"}, {Name: "p", Backups: []string{"LY"}}, {Name: "x", Backups: []string{"LY"}}}
	if due := p.due(movedOn, grace); len(due) != 1 || !due[0].graceOver {
		t.Fatalf("the copy moved on to p: %+v, want LY dropped after the grace period", due)
	}

	// o is gone: a alone is what the plan still has live.
	p = pending()
	oGone := []machineEntry{{Name: "a", Primaries: []string{"LY"}}, {Name: "x", Backups: []string{"LY"}}}
	if due := p.due(oGone, grace); len(due) != 1 {
		t.Fatalf("o gone: %+v, want LY dropped after the grace period", due)
	}
}
