package alliance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// delegateLoop decides, at every change of the view and every second, whether this machine acts
// as the alliance's delegate (actingDelegate), and registers it with every search server when
// the registrar says so.
func (m *Machine) delegateLoop(ctx context.Context) {
	client := m.sec.client(min(m.cfg.CallTimeout, time.Second))
	reg := registrar{every: m.cfg.RegisterEvery}
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
		acting := m.actingDelegate(ctx, client)
		alternates := m.alternates()
		roleChanged, register := reg.step(acting, m.leaving.Load(), alternates, time.Now())
		if roleChanged {
			m.log.Info("delegate role changed", "acting", acting, "view_delegate", m.view.delegate())
			m.acting.Store(acting)
			m.metrics.delegate.Set(boolGauge(acting))
		}
		if register {
			m.registerEverywhere(ctx, client, alternates)
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-tick.C:
		}
	}
}

// actingDelegate reports whether this machine should act as the delegate: it is the live
// machine with the smallest name in the view, or every machine ranked before it in the view
// fails its health check — a killed or cut-off delegate is replaced within a second or two,
// without waiting for its lease to expire, and even when etcd has lost quorum and cannot expire
// it at all. Two machines may both register for a while; the search server keeps the latest
// registration with its alternates, and either answers correctly.
func (m *Machine) actingDelegate(ctx context.Context, client *http.Client) bool {
	d := m.view.delegate()
	if d == "" {
		return false
	}
	reach := newReachability(client)
	if !m.member.Load().Status(ctx).HasQuorum {
		// Without quorum this machine cannot tell "the others are dead" from "I am cut off", and
		// the view keeps the dead machines' entries (their leases cannot expire). A machine it
		// reaches that has quorum belongs to the side that decides: that side names the
		// delegate (a machine cut off only one way — it reaches the others, they do not reach
		// it — would otherwise register too, alternating with the real delegate). With no
		// quorum anywhere it reaches, it acts only while its copies and those of the machines
		// it reaches cover every seller: a cut-off machine with part of the data would register
		// answers that are always incomplete.
		if reach.quorumAmong(ctx, m.view.entries(), m.cfg.Name) || !m.reachableCover(ctx, reach) {
			return false
		}
	}
	if d == m.cfg.Name {
		return true
	}
	for _, e := range m.view.entries() {
		if e.Name >= m.cfg.Name {
			break
		}
		if reach.check(ctx, e.URL) {
			return false
		}
	}
	return true
}

// reachableCover reports whether every seller the alliance knows has a copy here or, as the
// last view says, on a machine this one reaches.
func (m *Machine) reachableCover(ctx context.Context, reach *reachability) bool {
	for _, s := range m.knownSellers() {
		if _, ok := m.store.seller(s); ok {
			continue
		}
		covered := false
		for _, holder := range m.view.candidates(s) {
			if url, ok := m.view.url(holder); ok && holder != m.cfg.Name && reach.check(ctx, url) {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

// reachability remembers, for one decision, which machines answered their health check and
// whether they have quorum.
type reachability struct {
	client *http.Client
	seen   map[string]health
}

func newReachability(client *http.Client) *reachability {
	return &reachability{client: client, seen: map[string]health{}}
}

func (r *reachability) health(ctx context.Context, base string) health {
	h, known := r.seen[base]
	if !known {
		h = checkHealth(ctx, r.client, base)
		r.seen[base] = h
	}
	return h
}

// check reports whether the machine at base answers its health check.
func (r *reachability) check(ctx context.Context, base string) bool { return r.health(ctx, base).OK }

// quorumAmong reports whether a machine of entries other than self answers and has quorum.
func (r *reachability) quorumAmong(ctx context.Context, entries []machineEntry, self string) bool {
	for _, e := range entries {
		if e.Name != self && r.health(ctx, e.URL).Quorum {
			return true
		}
	}
	return false
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

// maxAlternates is how many other machines a registration names as alternates.
const maxAlternates = 4

// alternates are the SellerService URLs of the machines a search server should ask when this
// delegate fails or is slow: the other live machines of the view, those after this one in name
// order first (the delegate's successors), then those before it (which this machine found
// unreachable, or it would not act), at most maxAlternates. Any machine can answer getTrips for
// the whole alliance.
func (m *Machine) alternates() []string {
	var after, before []string
	for _, e := range m.view.entries() {
		switch {
		case e.Name > m.cfg.Name:
			after = append(after, e.URL+sellerPath)
		case e.Name < m.cfg.Name:
			before = append(before, e.URL+sellerPath)
		}
	}
	all := append(after, before...)
	return all[:min(len(all), maxAlternates)]
}

func (m *Machine) registerEverywhere(ctx context.Context, client *http.Client, alternates []string) {
	uri := m.cfg.AdvertiseURL + sellerPath
	for _, search := range m.cfg.SearchURLs {
		if err := registerWith(ctx, client, m.sec, search, m.cfg.Alliance, uri, alternates); err != nil {
			m.log.Warn("registering with the search server failed", "search", search, "err", err)
			continue
		}
		m.metrics.registrations.Inc()
	}
}

// registerWith calls PUT /Services/FlightsSearchReg/Register/{alliance} on one search server.
func registerWith(ctx context.Context, client *http.Client, sec security, search, alliance, uri string, alternates []string) error {
	body, _ := json.Marshal(map[string]any{"uri": uri, "alternates": alternates})
	target := strings.TrimRight(search, "/") + "/Services/FlightsSearchReg/Register/" + url.PathEscape(alliance)
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	sec.authorize(req)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s: %s: %s", target, resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}

// unregisterEverywhere removes this alliance from the search servers (the last machine leaving).
func (m *Machine) unregisterEverywhere(ctx context.Context) {
	client := m.sec.client(m.cfg.CallTimeout)
	for _, search := range m.cfg.SearchURLs {
		target := strings.TrimRight(search, "/") + "/Services/FlightsSearchReg/Unregister?cluster=" + url.QueryEscape(m.cfg.Alliance)
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, target, nil)
		if err != nil {
			continue
		}
		m.sec.authorize(req)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}
