package registry

import (
	"cmp"
	"net"
	"net/url"
	"slices"
	"sync"
	"time"

	"flightalliance/contract"
)

// Registration is one alliance's delegate as the search server knows it. A delegate refreshes it
// by registering again; at ExpiresAt (LastSeen + TTL) without a refresh it becomes stale.
type Registration struct {
	Name       string   `json:"name"`
	URI        string   `json:"uri"`
	Alternates []string `json:"alternates,omitempty"` // asked in order when the delegate fails or is slow
	// Previous are the delegate and alternates of the registrations this one replaced, and the
	// alternates its refreshes stopped naming, asked last, each until the registration that
	// named it would have gone stale (see Fallback).
	Previous     []Fallback `json:"previous,omitempty"`
	RegisteredAt time.Time  `json:"registered_at"` // when this URI was first registered under Name
	LastSeen     time.Time  `json:"last_seen"`
	ExpiresAt    time.Time  `json:"expires_at"`
	// Stale says the delegate has not refreshed the registration within the TTL: searches report
	// the alliance incomplete, naming since when it is silent, and do not ask it.
	Stale bool `json:"stale"`
}

// Fallback is a target of a replaced registration, or an alternate a refresh no longer names,
// kept until the registration that named it would have gone stale. A machine of an alliance can
// replace the registration of the real delegate by mistake (it registered on a view of the
// alliance that lagged, seeing nobody before it) and die or be cut off right after; the real
// delegate refreshes only seconds later. Until then the searches
// still reach a machine that answers: the delegate it replaced, asked after the new line while
// nobody of that line has answered (FallbackUsable). Likewise the alternates a delegate's refresh
// no longer names: its view can lose the other machines for a moment (their sessions ended
// together, as when etcd's resumed old leader revokes every lease, etcd-io/etcd#15247), and it
// can be paused or cut off right after, before they register again.
type Fallback struct {
	URI   string    `json:"uri"`
	Until time.Time `json:"until"`
}

// ValidName reports whether name is an alliance's name as the search server registers it
// (contract.ValidAlliance).
func ValidName(name string) bool { return contract.ValidAlliance(name) }

// maxFallbacks bounds a registration's Previous.
const maxFallbacks = 8

// Registry holds the registrations, one per alliance name. An alliance, once known, stays known
// until it is unregistered: a registration that outlives its TTL is kept, marked stale, so that a
// silent alliance is reported as such and never silently drops out of the answers.
type Registry struct {
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	regs map[string]Registration
}

// New returns an empty registry whose entries go stale ttl after their last refresh.
func New(ttl time.Duration, now func() time.Time) *Registry {
	return &Registry{ttl: ttl, now: now, regs: map[string]Registration{}}
}

// Register adds or refreshes the registration of alliance name. A different URI replaces the
// old registration (RegisteredAt restarts), whose delegate and alternates become fallbacks
// (Previous); the same URI only refreshes it, and the alternates it no longer names become
// fallbacks. Either way the alternates are the ones given now, and fallbacks are kept until they
// lapse. It returns the new registration and the URI it replaced, if any.
func (r *Registry) Register(name, uri string, alternates ...string) (reg Registration, replacedURI string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	old, ok := r.regs[name]
	reg = Registration{Name: name, URI: uri, Alternates: slices.Clone(alternates), RegisteredAt: now,
		LastSeen: now, ExpiresAt: now.Add(r.ttl)}
	if ok && old.URI == uri {
		reg.RegisteredAt = old.RegisteredAt
	} else if ok {
		replacedURI = old.URI
	}
	if ok {
		reg.Previous = fallbacks(reg, old, now)
	}
	r.regs[name] = reg
	return reg, replacedURI
}

// fallbacks are the fallbacks of reg, which replaces or refreshes old at now: old's own delegate
// when reg replaces it and old's alternates (until old's expiry), then old's fallbacks that have
// not lapsed; none that reg already names, none twice, at most maxFallbacks.
func fallbacks(reg, old Registration, now time.Time) []Fallback {
	var out []Fallback
	seen := map[string]bool{reg.URI: true}
	for _, uri := range reg.Alternates {
		seen[uri] = true
	}
	add := func(f Fallback) {
		if !seen[f.URI] && now.Before(f.Until) && len(out) < maxFallbacks {
			seen[f.URI] = true
			out = append(out, f)
		}
	}
	add(Fallback{URI: old.URI, Until: old.ExpiresAt}) // reg's own URI on a refresh: not added
	for _, uri := range old.Alternates {
		add(Fallback{URI: uri, Until: old.ExpiresAt})
	}
	for _, f := range old.Previous {
		add(f)
	}
	return out
}

// Line is whom the registration names: the delegate, then its alternates.
func (reg Registration) Line() []string {
	return append([]string{reg.URI}, reg.Alternates...)
}

// Targets is whom a search or a booking may ask for this alliance, in order: its line, then its fallbacks.
// reg is as the Registry hands it out (marked): the fallbacks that lapsed are left out already.
// A fallback is asked only while no machine of the line has answered (FallbackUsable).
func (reg Registration) Targets() []string {
	out := reg.Line()
	for _, f := range reg.Previous {
		out = append(out, f.URI)
	}
	return out
}

// FallbackUsable reports whether target may be asked, given whether a machine of reg's line has
// answered (trips, or a fault: a machine that is up). The fallbacks are for a line that is
// silent or dead — a mistaken registration whose machine went away — not one that answers: when
// the line's answer is incomplete or refused, a fallback that is itself silent (a machine that
// failed over to the line) would only hold the answer until the delegate timeout.
func (reg Registration) FallbackUsable(target string, lineAnswered bool) bool {
	return !lineAnswered || slices.Contains(reg.Line(), target)
}

// Remove drops the registration of alliance name; it reports whether there was one.
func (r *Registry) Remove(name string) (Registration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	reg, ok := r.regs[name]
	delete(r.regs, name)
	return r.marked(reg), ok
}

// RemoveByHost drops every registration whose URI host is the address ip, and returns them
// sorted by name. The host "localhost" counts as every loopback address; other names are not
// resolved (no DNS on this path), so a delegate that registered under a host name must
// unregister by cluster name.
func (r *Registry) RemoveByHost(ip net.IP) []Registration { return r.RemoveByHostIf(ip, nil) }

// RemoveByHostIf is RemoveByHost limited to the alliances whose name satisfies ok (nil: every
// alliance).
func (r *Registry) RemoveByHostIf(ip net.IP, ok func(name string) bool) []Registration {
	r.mu.Lock()
	defer r.mu.Unlock()
	var removed []Registration
	for name, reg := range r.regs {
		if (ok == nil || ok(name)) && hostIs(reg.URI, ip) {
			removed = append(removed, r.marked(reg))
			delete(r.regs, name)
		}
	}
	sortByName(removed)
	return removed
}

// All returns every known registration, stale or not, sorted by name.
func (r *Registry) All() []Registration {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Registration, 0, len(r.regs))
	for _, reg := range r.regs {
		out = append(out, r.marked(reg))
	}
	sortByName(out)
	return out
}

// Counts returns how many known registrations are live and how many stale.
func (r *Registry) Counts() (live, stale int) {
	for _, reg := range r.All() {
		if reg.Stale {
			stale++
		} else {
			live++
		}
	}
	return live, stale
}

// marked is reg as of now: Stale set, and the fallbacks that lapsed left out.
func (r *Registry) marked(reg Registration) Registration {
	now := r.now()
	reg.Stale = !now.Before(reg.ExpiresAt)
	reg.Previous = slices.DeleteFunc(slices.Clone(reg.Previous), func(f Fallback) bool { return !now.Before(f.Until) })
	if len(reg.Previous) == 0 {
		reg.Previous = nil
	}
	return reg
}

func hostIs(uri string, ip net.IP) bool {
	u, err := url.Parse(uri)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return ip.IsLoopback()
	}
	hip := net.ParseIP(h)
	return hip != nil && hip.Equal(ip)
}

func sortByName(regs []Registration) {
	slices.SortFunc(regs, func(a, b Registration) int { return cmp.Compare(a.Name, b.Name) })
}
