package search

import (
	"cmp"
	"net"
	"net/url"
	"slices"
	"sync"
	"time"
)

// Registration is one alliance's delegate as the search server knows it. A delegate refreshes it
// by registering again; it expires at LastSeen + TTL.
type Registration struct {
	Name         string    `json:"name"`
	URI          string    `json:"uri"`
	Alternates   []string  `json:"alternates,omitempty"` // asked in order when the delegate fails or is slow
	RegisteredAt time.Time `json:"registered_at"`        // when this URI was first registered under Name
	LastSeen     time.Time `json:"last_seen"`
	ExpiresAt    time.Time `json:"expires_at"`
}

// Registry holds the registrations, one per alliance name. Expired registrations are dropped
// whenever the registry is read or written, so a reader never sees one.
type Registry struct {
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	regs map[string]Registration
}

// NewRegistry returns an empty registry whose entries live ttl after their last refresh.
func NewRegistry(ttl time.Duration, now func() time.Time) *Registry {
	return &Registry{ttl: ttl, now: now, regs: map[string]Registration{}}
}

// Register adds or refreshes the registration of alliance name. A different URI replaces the
// old registration (RegisteredAt restarts); the same URI only refreshes it. Either way the
// alternates are the ones given now. It returns the new registration and the URI it replaced,
// if any.
func (r *Registry) Register(name, uri string, alternates ...string) (reg Registration, replacedURI string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	r.pruneLocked(now)
	old, ok := r.regs[name]
	reg = Registration{Name: name, URI: uri, Alternates: slices.Clone(alternates), RegisteredAt: now,
		LastSeen: now, ExpiresAt: now.Add(r.ttl)}
	if ok && old.URI == uri {
		reg.RegisteredAt = old.RegisteredAt
	} else if ok {
		replacedURI = old.URI
	}
	r.regs[name] = reg
	return reg, replacedURI
}

// targets is whom a search asks for this alliance, in order: the delegate, then its alternates.
func (reg Registration) targets() []string {
	return append([]string{reg.URI}, reg.Alternates...)
}

// Remove drops the registration of alliance name; it reports whether there was one.
func (r *Registry) Remove(name string) (Registration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(r.now())
	reg, ok := r.regs[name]
	delete(r.regs, name)
	return reg, ok
}

// RemoveByHost drops every registration whose URI host is the address ip, and returns them
// sorted by name. The host "localhost" counts as every loopback address; other names are not
// resolved (no DNS on this path), so a delegate that registered under a host name must
// unregister by cluster name.
func (r *Registry) RemoveByHost(ip net.IP) []Registration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(r.now())
	var removed []Registration
	for name, reg := range r.regs {
		if hostIs(reg.URI, ip) {
			removed = append(removed, reg)
			delete(r.regs, name)
		}
	}
	sortByName(removed)
	return removed
}

// Live returns the unexpired registrations sorted by name.
func (r *Registry) Live() []Registration {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(r.now())
	out := make([]Registration, 0, len(r.regs))
	for _, reg := range r.regs {
		out = append(out, reg)
	}
	sortByName(out)
	return out
}

// Len counts the unexpired registrations.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pruneLocked(r.now())
	return len(r.regs)
}

func (r *Registry) pruneLocked(now time.Time) {
	for name, reg := range r.regs {
		if !now.Before(reg.ExpiresAt) {
			delete(r.regs, name)
		}
	}
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
