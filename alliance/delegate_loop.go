package alliance

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"time"

	"flightalliance/coord"
)

// delegateLoop decides, at every change of the view and every second, whether this machine acts
// as the alliance's delegate and whether to register it with every search server now
// (delegateRole.step), and does what the step says.
func (m *Machine) delegateLoop(ctx context.Context) {
	client := m.sec.client(min(m.cfg.CallTimeout, time.Second))
	role := delegateRole{reg: registrar{every: m.cfg.RegisterEvery}}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	// The loop ends with its member (removed, restarting) or the machine: it registers no more,
	// so the machine no longer acts (/status, the delegate gauge) until the next loop decides.
	defer func() {
		m.acting.Store(false)
		m.metrics.delegate.Set(0)
	}()
	for {
		changed := m.view.wait()
		d := role.step(m.delegatePass(ctx, client))
		if d.roleChanged {
			m.log.Info("delegate role changed", "acting", d.acting, "view_delegate", m.view.delegate())
			m.acting.Store(d.acting)
			m.metrics.delegate.Set(boolGauge(d.acting))
		}
		if d.register {
			m.registerEverywhere(ctx, client, d.alternates)
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-tick.C:
		}
	}
}

// delegatePass reads what one pass of the delegate loop decides from (an empty view decides
// nothing: the member is not asked). The step makes the health checks it needs as it goes: a
// machine with quorum first in line asks nobody; one without stops at the first uncovered seller.
func (m *Machine) delegatePass(ctx context.Context, client *http.Client) delegatePass {
	entries := m.view.entries()
	return delegatePass{
		self:    m.cfg.Name,
		entries: entries,
		quorum:  len(entries) > 0 && m.member.Load().Status(ctx).HasQuorum,
		leaving: m.leaving.Load(),
		now:     time.Now(),
		copies:  m.sellerCopies,
		probe:   probeOnce(ctx, client),
		unseenBefore: func() bool {
			return m.unseenBefore(ctx, entries)
		},
	}
}

// etcdReadTimeout bounds unseenBefore's read of etcd: a linearizable read that takes a
// millisecond or two with quorum. One that fails leaves the decision to the view.
const etcdReadTimeout = 500 * time.Millisecond

// unseenBefore reads the machines' entries from etcd and reports whether the view's entries
// lack one ranked before this machine (unseenIn). A read that fails says no: the view decides.
func (m *Machine) unseenBefore(ctx context.Context, entries []machineEntry) bool {
	ctx, cancel := context.WithTimeout(ctx, etcdReadTimeout)
	defer cancel()
	stored, _, err := m.tree().ChildrenData(ctx, m.keys.machines(), 0)
	if err != nil {
		m.log.Debug("reading the machines' entries before registering as the delegate failed", "err", err)
		return false
	}
	if name, unseen := unseenIn(stored, entries, m.cfg.Name); unseen {
		m.log.Info("not acting as the delegate: the view lacks a machine before this one", "machine", name)
		return true
	}
	return false
}

// unseenIn returns the first machine of stored (the machines folder's children, sorted by name)
// ranked before self whose entry is well formed — the view drops the others too — and that
// view does not have.
func unseenIn(stored []coord.Child, view []machineEntry, self string) (name string, unseen bool) {
	for _, c := range stored {
		if c.Name >= self {
			break
		}
		if _, err := decodeMachineEntry(c.Name, c.Value); err != nil {
			continue
		}
		if !slices.ContainsFunc(view, func(e machineEntry) bool { return e.Name == c.Name }) {
			return c.Name, true
		}
	}
	return "", false
}

// sellerCopies lists every seller the alliance knows, each with whether this machine has a copy
// and, if not, the machines the view says to ask for it (view.candidates).
func (m *Machine) sellerCopies() []sellerCopy {
	known := m.knownSellers()
	out := make([]sellerCopy, 0, len(known))
	for _, s := range known {
		c := sellerCopy{seller: s}
		if _, ok := m.copies.seller(s); ok {
			c.here = true
		} else {
			c.holders, _ = m.view.candidates(s)
		}
		out = append(out, c)
	}
	return out
}

// probeOnce is one pass's health check: each machine is asked at most once, its answer
// remembered for the rest of the pass.
func probeOnce(ctx context.Context, client *http.Client) func(base string) health {
	seen := map[string]health{}
	return func(base string) health {
		h, known := seen[base]
		if !known {
			h = checkHealth(ctx, client, base)
			seen[base] = h
		}
		return h
	}
}

// health is what GET /healthz says of a machine.
type health struct {
	OK     bool `json:"-"`
	Quorum bool `json:"quorum"`
}

// checkHealth asks a machine's GET /healthz.
func checkHealth(ctx context.Context, client *http.Client, base string) health {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return health{}
	}
	resp, err := client.Do(req)
	if err != nil {
		return health{}
	}
	defer resp.Body.Close()
	var h health
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&h) != nil {
		return health{}
	}
	h.OK = true
	return h
}
