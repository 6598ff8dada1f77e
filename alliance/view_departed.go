package alliance

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"flightalliance/soap"
)

// A machine whose entry vanishes is not necessarily gone: its session may have ended while it
// kept running — its lease expired behind a paused etcd leader, or its member was cut off from
// the others' etcd but not from their searches — and until it rejoins it still serves the copies
// it had. The view remembers such a machine for departedAskable, and a delegate asks it for a
// seller last, after every live holder (view.candidates): an answer that would otherwise name
// the seller missing can still be complete. It asks naming the version the machine's last entry
// gave (soap.SellerVersion), only when that is the seller's current version — as the live
// primaries name it, or as they last named it when none is live — and for no seller whose
// version it cannot name; the machine answers nothing for a copy it has replaced since: a
// departed machine's answer is never of another version than a live holder's would be. When a
// departure falls out of the window, the delegate's caches are emptied (expireDepartures): an
// answer kept from before must not go on showing a seller only that machine could answer for.
// A departed machine that fails a call is left alone for departedRetryAfter, then tried by one
// call at a time until it answers (departedProbe).

// departedAskable is how long after its entry vanished a machine is still asked, last, for the
// copies its last entry named. A machine whose session ended while it ran rejoins within a few
// seconds; one that is gone for good costs failed calls, only to searches that found no live
// holder, and once one has failed, one at a time (departedRetryAfter).
const departedAskable = time.Minute

// departedRetryAfter is how long a departed machine that failed a call (dead, or cut off from
// this machine too: a call to it costs the whole call timeout) is left alone. Then one call at a
// time tries it again (departedProbe), and the others leave it out meanwhile: once a call has
// failed, a seller with no live holder costs one search at a time the call timeout, and the
// others say at once that the seller is missing, as they did before departed machines were
// asked. Once it answers it is asked by every search again.
const departedRetryAfter = time.Second

// departure is the last entry of a machine that is no longer in the view, when it vanished, and
// how the calls to it went since.
type departure struct {
	entry      machineEntry
	at         time.Time
	unanswered time.Time // when a call to it last failed; zero: none has since it departed, or one answered after
	probing    bool      // a call is trying it again after a failure
}

// depart remembers a machine's last entry as its entry vanishes, and forgets departures older
// than departedAskable.
func (s *viewState) depart(e machineEntry) {
	now := s.now()
	s.departed[e.Name] = departure{entry: e, at: now}
	maps.DeleteFunc(s.departed, func(_ string, d departure) bool { return now.Sub(d.at) > departedAskable })
}

// departedHolders lists, most recently departed first, the machines not in the view whose entry
// vanished less than departedAskable ago and named a copy of seller (as primary or backup) at
// the seller's current version: as the live primaries name it (currentVersion), or as they last
// named it; none when the view never knew one.
func (s *viewState) departedHolders(seller string) []string {
	now := s.now()
	current, known := s.currentVersion(seller)
	if !known {
		current, known = s.current[seller]
	}
	if !known {
		return nil
	}
	var out []departure
	for name, d := range s.departed {
		e := d.entry
		if _, live := s.machines[name]; live || now.Sub(d.at) > departedAskable {
			continue
		}
		if !d.unanswered.IsZero() && (d.probing || now.Sub(d.unanswered) < departedRetryAfter) {
			continue
		}
		held := slices.Contains(e.Primaries, seller) || slices.Contains(e.Backups, seller)
		if ver, has := e.Versions[seller]; held && has && ver == current {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b departure) int {
		return cmp.Or(b.at.Compare(a.at), cmp.Compare(a.entry.Name, b.entry.Name))
	})
	names := make([]string, len(out))
	for i, d := range out {
		names[i] = d.entry.Name
	}
	return names
}

// departedCall is a call departedProbe let go to a departed machine: which departure it is a
// call of, and whether it is the one probe after a failure.
type departedCall struct {
	name  string
	at    time.Time // when the departure it was made in began
	probe bool
}

// departedProbe reports whether a call may go to a departed machine now: always, unless a call
// to it failed since it departed; then only once departedRetryAfter has passed and no other call
// is trying it (this one is then the probe). The caller reports how the call went to
// departedAnswered. A live machine may always be called.
func (v *view) departedProbe(name string) (call departedCall, ok bool) {
	v.mirror.Update(func(s *viewState) {
		d, departed := s.departed[name]
		if _, live := s.machines[name]; live || !departed {
			ok = true
			return
		}
		call = departedCall{name: name, at: d.at}
		if d.unanswered.IsZero() {
			ok = true
			return
		}
		if d.probing || s.now().Sub(d.unanswered) < departedRetryAfter {
			return
		}
		d.probing, call.probe, ok = true, true, true
		s.departed[name] = d
	})
	return call, ok
}

// callOutcome is how a call to a departed machine went.
type callOutcome int

const (
	callAnswered  callOutcome = iota // it answered (whatever it covered)
	callFailed                       // it did not answer in time, or refused the call
	callAbandoned                    // the caller stopped waiting first (another holder answered)
)

// departedAnswered records how a call to a departed machine went: one that answered is asked by
// every search again; one that failed is left alone for departedRetryAfter (departedProbe,
// departedHolders); an abandoned call tells nothing of it. The end of the probe lets another
// call probe. A call made in an earlier departure of the machine (it rejoined and departed again
// since) tells nothing of this one.
func (v *view) departedAnswered(call departedCall, outcome callOutcome) {
	v.mirror.Update(func(s *viewState) {
		d, ok := s.departed[call.name]
		if !ok || !d.at.Equal(call.at) {
			return
		}
		if call.probe {
			d.probing = false
		}
		switch outcome {
		case callAnswered:
			d.unanswered = time.Time{}
		case callFailed:
			d.unanswered = s.now()
		}
		s.departed[call.name] = d
	})
}

// departedAt is where a departed machine answered and the versions to ask it for, of the sellers
// its last entry named a version of (the others are left out: what it would answer for them
// could not be checked); ok is false when the machine is live or not departed within
// departedAskable.
func (v *view) departedAt(name string, sellers []string) (url string, versions []soap.SellerVersion, ok bool) {
	v.read(func(s *viewState) {
		d, departed := s.departed[name]
		if _, live := s.machines[name]; live || !departed || s.now().Sub(d.at) > departedAskable {
			return
		}
		for _, sel := range sellers {
			if ver, has := d.entry.Versions[sel]; has {
				versions = append(versions, soap.SellerVersion{Seller: sel, Version: ver})
			}
		}
		url, ok = d.entry.URL, len(versions) > 0
	})
	return url, versions, ok
}

// expireDepartures calls the view's onDataChange each time a departure falls out of
// departedAskable, until ctx ends: answers computed with that machine's copies, and the flight
// lists it sent, may be kept as complete, and once it is no longer asked a search must find its
// sellers missing again rather than be answered from those.
func (v *view) expireDepartures(ctx context.Context) {
	type departed struct {
		name string
		at   time.Time
	}
	notified := map[departed]bool{}
	for {
		changed := v.wait()
		expired, next := false, time.Duration(-1)
		v.read(func(s *viewState) {
			now := s.now()
			for name, d := range s.departed {
				k := departed{name, d.at}
				if _, live := s.machines[name]; live || notified[k] {
					continue
				}
				switch left := d.at.Add(departedAskable).Sub(now); {
				case left <= 0:
					expired, notified[k] = true, true
				case next < 0 || left < next:
					next = left
				}
			}
			maps.DeleteFunc(notified, func(k departed, _ bool) bool {
				d, ok := s.departed[k.name]
				return !ok || !d.at.Equal(k.at)
			})
		})
		if expired {
			if v.onDataChange != nil {
				v.onDataChange()
			}
			continue
		}
		var due <-chan time.Time
		var timer *time.Timer
		if next >= 0 {
			timer = time.NewTimer(next)
			due = timer.C
		}
		select {
		case <-ctx.Done():
		case <-changed:
		case <-due:
		}
		if timer != nil {
			timer.Stop()
		}
		if ctx.Err() != nil {
			return
		}
	}
}
