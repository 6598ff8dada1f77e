package alliance

import (
	"cmp"
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
// gave (soap.SellerVersion), only when that is the seller's current version, and the machine
// answers nothing for a copy it has replaced since: a departed machine's answer is never of
// another version than a live holder's would be.

// departedAskable is how long after its entry vanished a machine is still asked, last, for the
// copies its last entry named. A machine whose session ended while it ran rejoins within a few
// seconds; one that is gone for good costs a failed call, and only to a search that found no
// live holder.
const departedAskable = time.Minute

// departure is the last entry of a machine that is no longer in the view, and when it vanished.
type departure struct {
	entry machineEntry
	at    time.Time
}

// depart remembers a machine's last entry as its entry vanishes, and forgets departures older
// than departedAskable.
func (s *viewState) depart(e machineEntry) {
	now := s.now()
	s.departed[e.Name] = departure{entry: e, at: now}
	maps.DeleteFunc(s.departed, func(_ string, d departure) bool { return now.Sub(d.at) > departedAskable })
}

// departedHolders lists, most recently departed first, the machines not in the view whose entry
// vanished less than departedAskable ago and named a copy of seller (as primary, backup or
// brought) at a known version, the seller's current version when the view knows one.
func (s *viewState) departedHolders(seller string) []string {
	now := s.now()
	current, known := s.currentVersion(seller)
	var out []departure
	for name, d := range s.departed {
		e := d.entry
		if _, live := s.machines[name]; live || now.Sub(d.at) > departedAskable {
			continue
		}
		ver, has := e.Versions[seller]
		held := slices.Contains(e.Primaries, seller) || slices.Contains(e.Backups, seller) || slices.Contains(e.Brings, seller)
		if held && has && (!known || ver == current) {
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
