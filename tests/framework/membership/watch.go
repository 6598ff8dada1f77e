package membership

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"
)

// The membership invariant, checked twice a second for the whole of every test that starts an
// alliance (not only at its end):
//  1. no etcd member of a machine whose process runs and that the test did not cut off, pause,
//     kill or ask to leave is ever removed (as the other machine with quorum that applied the
//     latest raft entry lists the members: freshestView) —
//     unless the remover's last probe of it began before the test restarted, resumed or healed
//     it (the removal's log line says when): a verdict on evidence from before it came back,
//     after which it must rejoin (part 2);
//  2. a machine restarted, resumed or healed is back in the view and in etcd's member list
//     within backWithin;
//  3. every running machine that has quorum names the same delegate (a disagreement may last
//     agreeWithin, the time for a change of the tree to reach every machine);
//  4. a machine without quorum never acts as delegate (registers) while one with quorum does
//     (again for at most agreeWithin, a delegate loop's decision).
//
// A violation fails the test (t.Errorf, once per kind and machine) naming the machine and, for
// a removal, the remover's log line.
const (
	watchEvery  = 500 * time.Millisecond
	backWithin  = 30 * time.Second
	agreeWithin = 5 * time.Second
)

// State is what the test did to a machine last.
type State int

const (
	Up      State = iota // running as started: must stay a member
	Faulted              // killed, cut off or leaving: the alliance may remove it
	Paused               // SIGSTOPped: it cannot answer, and may be removed
)

// watchedMachine is one machine as the watch follows it.
type watchedMachine struct {
	name, url, log string
	running        func() bool // whether its process or container runs now
	state          State
	epoch          int       // bumped by every event, so a poll that overlapped one is ignored
	memberID       uint64    // its etcd member since its last (re)start or heal, once a quorum lists it
	upAt           time.Time // when it was last restarted, resumed or healed (zero: never faulted)
	backBy         time.Time // restarted, resumed or healed: back in the view and member list by then
}

// Watch checks the membership invariant of one test alliance.
type Watch struct {
	t   testing.TB
	get GetJSON
	mu  sync.Mutex // guards everything below
	// machines by name, in the order they were started.
	machines map[string]*watchedMachine
	reported map[string]bool
	// since when the machines with quorum name different delegates, and since when a machine
	// without quorum acts as delegate beside one with quorum (zero: not now).
	disagreeSince, doubleSince time.Time
	// SyncLogs, when set, brings the machines' log files up to date before they are read (a
	// container's log is Docker's, copied on demand).
	SyncLogs func()
}

// GetJSON reads url's JSON answer into out: the test's own HTTP client (its TLS, its timeouts).
type GetJSON func(ctx context.Context, url string, out any) error

// Start starts the watch, which reads every machine's GET /status with get; it ends when the
// test ends (before its cleanups kill the processes).
func Start(t testing.TB, get GetJSON) *Watch {
	w := &Watch{t: t, get: get, machines: map[string]*watchedMachine{}, reported: map[string]bool{}}
	ctx := t.Context()
	go func() {
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			w.check(ctx)
		}
	}()
	return w
}

// Started records that the machine name, serving at url and logging to log, was started (first
// start or a restart); running tells whether its process or container runs now.
func (w *Watch) Started(name, url, log string, running func() bool, restart bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wm := w.machines[name]
	if wm == nil {
		wm = &watchedMachine{name: name, url: url, log: log}
		w.machines[name] = wm
	}
	wm.running, wm.state, wm.memberID, wm.epoch = running, Up, 0, wm.epoch+1
	wm.backBy = time.Time{}
	if restart {
		wm.upAt = time.Now()
		wm.backBy = wm.upAt.Add(backWithin)
	}
}

// Set records a fault (Faulted, Paused) or a recovery (Up: resumed, healed).
func (w *Watch) Set(name string, st State) {
	w.mu.Lock()
	defer w.mu.Unlock()
	wm := w.machines[name]
	if wm == nil {
		return
	}
	wm.state, wm.epoch = st, wm.epoch+1
	if st == Up {
		wm.upAt = time.Now()
		wm.memberID, wm.backBy = 0, wm.upAt.Add(backWithin)
	}
}

// check polls every running, unpaused machine and checks the invariant on their answers.
func (w *Watch) check(ctx context.Context) {
	w.mu.Lock()
	var targets []watchedMachine
	for _, wm := range w.machines {
		if wm.state != Paused && wm.running() {
			targets = append(targets, *wm)
		}
	}
	w.mu.Unlock()

	answers := map[string]polled{}
	var amu sync.Mutex
	var wg sync.WaitGroup
	for _, m := range targets {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			var st Status
			if w.get(pctx, m.url+"/status", &st) == nil {
				amu.Lock()
				answers[m.name] = polled{epoch: m.epoch, st: st}
				amu.Unlock()
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	// Only answers of machines nothing happened to during the poll count.
	for name, p := range answers {
		if wm := w.machines[name]; wm == nil || wm.epoch != p.epoch || !wm.running() {
			delete(answers, name)
		}
	}
	w.checkMembers(answers)
	w.checkDelegates(answers)
}

// checkMembers checks parts 1 and 2 of the invariant.
func (w *Watch) checkMembers(answers map[string]polled) {
	now := time.Now()
	for _, name := range slices.Sorted(maps.Keys(w.machines)) {
		wm := w.machines[name]
		if wm.state != Up || !wm.running() {
			continue
		}
		own, answered := answers[name]
		// Only another machine judges: one just resumed may still believe, for a few seconds,
		// that it leads a cluster that has removed it.
		if other, ok := freshestView(answers, name); ok {
			y := answers[other].st
			if wm.memberID != 0 && !y.Lists(wm.memberID) {
				line, probedAt := w.lastRemoval(name)
				if !wm.upAt.IsZero() && !probedAt.IsZero() && probedAt.Before(wm.upAt) {
					w.t.Logf("membership watch: %s, back since %s, was removed on a probe begun at %s, before it came back; it must rejoin within %v (%s)",
						name, wm.upAt.Format("15:04:05.000"), probedAt.Format("15:04:05.000"), backWithin, line)
					wm.memberID, wm.backBy = 0, now.Add(backWithin)
				} else {
					w.violation("removed "+name, "the etcd member %x of %s, a running machine the test did not fault, was removed (as %s lists the members: %v); %s",
						wm.memberID, name, other, y.Member.Members, w.removalLine(name))
				}
			}
			if wm.memberID == 0 && answered && own.st.Member != nil && y.Lists(own.st.Member.ID) {
				wm.memberID = own.st.Member.ID
			}
		}
		if wm.backBy.IsZero() {
			continue
		}
		back := wm.memberID != 0 && slices.ContainsFunc(slices.Collect(maps.Values(answers)), func(p polled) bool {
			return p.st.Quorum() && p.st.InView(name)
		})
		switch {
		case back:
			wm.backBy = time.Time{}
		case now.After(wm.backBy):
			w.violation("not back "+name, "%s was restarted, resumed or healed %v ago and is not back in the view and etcd's member list (member confirmed: %v); %s",
				name, backWithin, wm.memberID != 0, w.removalLine(name))
			wm.backBy = time.Time{}
		}
	}
}

// checkDelegates checks parts 3 and 4 of the invariant.
func (w *Watch) checkDelegates(answers map[string]polled) {
	now := time.Now()
	named := map[string][]string{} // delegate → the machines with quorum that name it
	var actingWith, actingWithout []string
	for _, name := range slices.Sorted(maps.Keys(answers)) {
		st := answers[name].st
		if wm := w.machines[name]; wm.state != Up || wm.memberID == 0 {
			// Not (yet) confirmed a member by another machine since its last start or fault:
			// its claim of quorum may be stale (see checkMembers).
			continue
		}
		if st.Quorum() && st.Delegate != "" {
			named[st.Delegate] = append(named[st.Delegate], name)
		}
		switch {
		case st.Acting && st.Quorum():
			actingWith = append(actingWith, name)
		case st.Acting:
			actingWithout = append(actingWithout, name)
		}
	}
	w.disagreeSince = persists(w.disagreeSince, len(named) > 1, now)
	if !w.disagreeSince.IsZero() && now.Sub(w.disagreeSince) > agreeWithin {
		w.violation("delegate disagreement", "machines with quorum name different delegates for over %v: %v", agreeWithin, named)
	}
	w.doubleSince = persists(w.doubleSince, len(actingWith) > 0 && len(actingWithout) > 0, now)
	if !w.doubleSince.IsZero() && now.Sub(w.doubleSince) > agreeWithin {
		w.violation("double delegate", "%v act as delegate without quorum beside %v with quorum for over %v",
			actingWithout, actingWith, agreeWithin)
	}
}

// persists returns since when a condition holds: since if it held already, now if it starts
// now, zero when it does not hold.
func persists(since time.Time, holds bool, now time.Time) time.Time {
	switch {
	case !holds:
		return time.Time{}
	case since.IsZero():
		return now
	}
	return since
}

// violation fails the test once per key. Called with w.mu held.
func (w *Watch) violation(key, format string, args ...any) {
	if w.reported[key] {
		return
	}
	w.reported[key] = true
	w.t.Errorf("membership invariant: "+format, args...)
}
