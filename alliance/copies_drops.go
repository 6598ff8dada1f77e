package alliance

import (
	"slices"
	"time"

	"flightalliance/alliance/placement"
)

// pendingDrops are the copies this machine gave away in committed rounds and still keeps: a
// copy is dropped once every machine of its round's plan has published its new assignment (so
// the delegate routes around this machine), or when its grace period is over and the view shows
// as many other machines holding the seller as the last committed plan gives it to — a new
// holder whose publish failed (etcd unavailable, or rounds one after another) is not in any
// view yet, and dropping this copy then would leave one copy fewer than the failures the
// alliance is meant to answer through. Until then it still answers for the seller. It holds no
// I/O: the round loop asks it what is due and drops it.
type pendingDrops struct {
	self      string           // this machine
	latest    placement.Result // the plan of the last round committed
	waiting   []pendingDrop
	newlyKept []string // sellers whose copies due() kept past their grace period for the first time
}

// pendingDrop is one round's copies to drop.
type pendingDrop struct {
	gen       uint64           // the copies' generation the round started from
	plan      placement.Result // the round's plan, whose assignments must show in the view
	codes     []string         // the sellers given away
	deadline  time.Time        // the end of the grace period; then when to look again
	graceOver bool             // set when it is due because the grace period is over
	kept      bool             // the grace period is over and some of its copies were kept
}

// takeNewlyKept returns, once, the sellers whose copies were first kept past their grace period.
func (p *pendingDrops) takeNewlyKept() []string {
	kept := p.newlyKept
	p.newlyKept = nil
	return kept
}

// recheck is how soon copies kept past their grace period are looked at again.
const recheck = time.Second

// committed records the plan of a round this machine committed.
func (p *pendingDrops) committed(plan placement.Result) { p.latest = plan }

// add records the copies a committed round gave away.
func (p *pendingDrops) add(gen uint64, plan placement.Result, codes []string, deadline time.Time) {
	p.waiting = append(p.waiting, pendingDrop{gen: gen, plan: plan, codes: codes, deadline: deadline})
	if len(p.latest.Assignments) == 0 {
		p.latest = plan
	}
}

// due removes and returns, in the order added, the drops whose plan the view (entries) shows,
// or whose grace period is over at now, with the copies the view shows held elsewhere; the
// copies it does not show held elsewhere wait, and are looked at again a second later.
func (p *pendingDrops) due(entries []machineEntry, now time.Time) []pendingDrop {
	var due []pendingDrop
	waiting := p.waiting[:0]
	for _, d := range p.waiting {
		switch {
		case planPublished(d.plan, entries):
			due = append(due, d)
			continue
		case now.Before(d.deadline):
			waiting = append(waiting, d)
			continue
		}
		var drop, keep []string
		for _, code := range d.codes {
			if p.shownElsewhere(code, entries) {
				drop = append(drop, code)
			} else {
				keep = append(keep, code)
			}
		}
		if len(drop) > 0 {
			due = append(due, pendingDrop{gen: d.gen, plan: d.plan, codes: drop, deadline: d.deadline, graceOver: true})
		}
		if len(keep) > 0 && !d.kept {
			p.newlyKept = append(p.newlyKept, keep...)
		}
		if len(keep) > 0 {
			waiting = append(waiting, pendingDrop{gen: d.gen, plan: d.plan, codes: keep, deadline: now.Add(recheck), graceOver: true, kept: true})
		}
	}
	p.waiting = waiting
	return due
}

// shownElsewhere reports whether entries show code held by as many live machines other than this
// one as the last committed plan gives it to (later rounds may have moved the copies on: their
// number is what keeps searches complete through failures).
func (p *pendingDrops) shownElsewhere(code string, entries []machineEntry) bool {
	live := make(map[string]bool, len(entries))
	shown := 0
	for _, e := range entries {
		live[e.Name] = true
		if e.Name != p.self && (slices.Contains(e.Primaries, code) || slices.Contains(e.Backups, code)) {
			shown++
		}
	}
	needed := 0
	for _, a := range p.latest.Assignments {
		if a.Name != p.self && live[a.Name] && (slices.Contains(a.Primaries, code) || slices.Contains(a.Backups, code)) {
			needed++
		}
	}
	return shown >= needed
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
