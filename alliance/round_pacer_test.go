package alliance

import (
	"errors"
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/placement"
)

var epoch = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// TestRoundPacer walks the pacer through the round loop's cases: one round per membership
// revision, none while the machine cannot take part, a superseded round run again at once, a
// failed round retried by asking for a new round after retryAfter — unless the membership moved
// on meanwhile — and a failed request asked again a second later.
func TestRoundPacer(t *testing.T) {
	p := roundPacer{retryAfter: 9 * time.Second}
	if p.shouldRun(5, false) {
		t.Fatal("ran a round while not in the view")
	}
	if !p.shouldRun(5, true) {
		t.Fatal("no round for a new membership revision")
	}
	if again := p.ran(5, roundOutcome{Err: errSuperseded}, epoch); !again || !p.shouldRun(5, true) {
		t.Fatal("a superseded round must be followed by the next at once, and revision 5 is not handled")
	}
	if p.ran(5, roundOutcome{Committed: true}, epoch) || p.shouldRun(5, true) {
		t.Fatal("a committed round's revision must not run again")
	}
	if p.shouldAsk(5, epoch.Add(time.Hour)) {
		t.Fatal("asked for a round after a committed one")
	}

	// A round that failed without the membership moving on: ask after retryAfter.
	p.ran(6, roundOutcome{Err: errors.New("etcd timeout")}, epoch)
	if p.shouldRun(6, true) {
		t.Fatal("a failed round's revision ran again by itself")
	}
	if p.shouldAsk(6, epoch.Add(9*time.Second)) {
		t.Fatal("asked before retryAfter")
	}
	if !p.shouldAsk(6, epoch.Add(9*time.Second+time.Millisecond)) {
		t.Fatal("did not ask after retryAfter")
	}
	p.asked(false, epoch.Add(10*time.Second))
	if p.shouldAsk(6, epoch.Add(10*time.Second+500*time.Millisecond)) || !p.shouldAsk(6, epoch.Add(11*time.Second+time.Millisecond)) {
		t.Fatal("a failed request must be tried again a second later")
	}
	p.asked(true, epoch.Add(11*time.Second))
	if p.shouldAsk(6, epoch.Add(time.Hour)) {
		t.Fatal("asked again after a request went through")
	}

	// A failed round, then a membership change before the retry: the change brings its round.
	p.ran(7, roundOutcome{Committed: true, Err: errors.New("cannot adopt")}, epoch)
	if p.shouldAsk(8, epoch.Add(time.Hour)) || p.shouldAsk(7, epoch.Add(2*time.Hour)) {
		t.Fatal("asked for a round although the membership moved on")
	}

	// A relisted view asks at once; only a failed request is retried.
	p.relisted(true, epoch)
	if p.shouldAsk(8, epoch.Add(time.Hour)) {
		t.Fatal("a request that went through is retried")
	}
	p.relisted(false, epoch)
	if !p.shouldAsk(7, epoch.Add(2*time.Second)) {
		t.Fatal("a failed request after a relisting is not retried")
	}
}

// TestPendingDrops: a round's copies are dropped once the view shows every machine of its plan
// with its new assignment (machines gone since do not count), or at the end of the grace period,
// whichever comes first; each is dropped once.
func TestPendingDrops(t *testing.T) {
	plan := placement.Result{Assignments: []placement.Assignment{
		{Name: "m1", Primaries: []string{"LY"}, Backups: []string{"UA"}},
		{Name: "m2", Primaries: []string{"UA"}, Backups: []string{"LY"}},
		{Name: "m3", Primaries: []string{}, Backups: []string{}},
	}}
	old := []machineEntry{{Name: "m1", Primaries: []string{"LY", "UA"}}, {Name: "m2"}, {Name: "m3"}}
	published := []machineEntry{
		{Name: "m1", Primaries: []string{"LY"}, Backups: []string{"UA"}},
		{Name: "m2", Primaries: []string{"UA"}, Backups: []string{"LY"}},
	}
	var p pendingDrops
	if _, ok := p.next(); ok {
		t.Fatal("a deadline with nothing pending")
	}
	p.add(1, plan, []string{"AA"}, epoch.Add(10*time.Second))
	p.add(2, placement.Result{Assignments: []placement.Assignment{{Name: "m9", Primaries: []string{"X"}}}}, []string{"BA"}, epoch.Add(5*time.Second))
	if next, _ := p.next(); !next.Equal(epoch.Add(5 * time.Second)) {
		t.Fatalf("next deadline %s", next)
	}
	// m9 is gone: its plan counts as published.
	due := p.due(old, epoch)
	if len(due) != 1 || due[0].gen != 2 || due[0].graceOver {
		t.Fatalf("with the old view: %+v, want only round 2's drop, published", due)
	}
	if due := p.due(old, epoch.Add(9*time.Second)); len(due) != 0 {
		t.Fatalf("dropped before the plan was published or the grace was over: %+v", due)
	}
	due = p.due(published, epoch.Add(9*time.Second))
	if len(due) != 1 || !slices.Equal(due[0].codes, []string{"AA"}) || due[0].graceOver {
		t.Fatalf("with the plan published: %+v", due)
	}
	if due := p.due(published, epoch.Add(time.Hour)); len(due) != 0 {
		t.Fatalf("dropped twice: %+v", due)
	}
	p.add(3, plan, []string{"CC"}, epoch.Add(10*time.Second))
	due = p.due(old, epoch.Add(10*time.Second))
	if len(due) != 1 || !due[0].graceOver {
		t.Fatalf("at the end of the grace period: %+v", due)
	}
}
