package alliance

import (
	"slices"
	"time"

	"flightalliance/alliance/placement"
)

// pendingDrops are the copies this machine gave away in committed rounds and still keeps: a
// copy is dropped once every machine of its round's plan has published its new assignment (so
// the delegate routes around this machine), or when its grace period is over, whichever comes
// first. Until then it still answers for the seller. It holds no I/O: the round loop asks it
// what is due and drops it.
type pendingDrops struct {
	waiting []pendingDrop
}

// pendingDrop is one round's copies to drop.
type pendingDrop struct {
	gen       uint64           // the store's generation the round started from
	plan      placement.Result // the round's plan, whose assignments must show in the view
	codes     []string         // the sellers given away
	deadline  time.Time        // the end of the grace period
	graceOver bool             // set when it is due because the grace period is over
}

// add records the copies a committed round gave away.
func (p *pendingDrops) add(gen uint64, plan placement.Result, codes []string, deadline time.Time) {
	p.waiting = append(p.waiting, pendingDrop{gen: gen, plan: plan, codes: codes, deadline: deadline})
}

// due removes and returns, in the order added, the drops whose plan the view (entries) shows or
// whose grace period is over at now.
func (p *pendingDrops) due(entries []machineEntry, now time.Time) []pendingDrop {
	var due []pendingDrop
	p.waiting = slices.DeleteFunc(p.waiting, func(d pendingDrop) bool {
		switch {
		case planPublished(d.plan, entries):
		case !now.Before(d.deadline):
			d.graceOver = true
		default:
			return false
		}
		due = append(due, d)
		return true
	})
	return due
}

// next is the earliest deadline of the drops still waiting.
func (p *pendingDrops) next() (time.Time, bool) {
	if len(p.waiting) == 0 {
		return time.Time{}, false
	}
	next := p.waiting[0].deadline
	for _, d := range p.waiting[1:] {
		if d.deadline.Before(next) {
			next = d.deadline
		}
	}
	return next, true
}

// planPublished reports whether entries (the live machines' entries) show every assignment of
// plan; a machine of the plan that is gone does not count (the next round deals with it).
func planPublished(plan placement.Result, entries []machineEntry) bool {
	current := make(map[string]machineEntry, len(entries))
	for _, e := range entries {
		current[e.Name] = e
	}
	for _, a := range plan.Assignments {
		e, ok := current[a.Name]
		if !ok {
			continue
		}
		if !slices.Equal(e.Primaries, a.Primaries) || !slices.Equal(e.Backups, a.Backups) {
			return false
		}
	}
	return true
}
