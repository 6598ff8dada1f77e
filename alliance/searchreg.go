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
	}
}

// sellerCopies lists every seller the alliance knows, each with whether this machine has a copy
// and, if not, the machines the view says to ask for it (view.candidates).
func (m *Machine) sellerCopies() []sellerCopy {
	known := m.knownSellers()
	out := make([]sellerCopy, 0, len(known))
	for _, s := range known {
		c := sellerCopy{seller: s}
		if _, ok := m.store.seller(s); ok {
			c.here = true
		} else {
			c.holders = m.view.candidates(s)
		}
		out = append(out, c)
	}
	return out
}

// delegatePass is what one pass of the delegate loop decides from: the view and this machine's
// state as read at the start of the pass, and how to learn more when the decision needs it.
type delegatePass struct {
	self    string
	entries []machineEntry // the view's live machines, sorted by name
	quorum  bool           // this machine's etcd member sees a quorum
	leaving bool           // this machine is leaving the alliance
	now     time.Time
	// copies lists the sellers the alliance knows and where their copies are; it is asked only
	// without quorum.
	copies func() []sellerCopy
	// probe is a machine's health check (GET /healthz at url); a machine that does not answer
	// is health{}.
	probe func(url string) health
}

// sellerCopy is where one seller's data is, for the delegate's decision without quorum.
type sellerCopy struct {
	seller  string
	here    bool     // this machine has a copy
	holders []string // otherwise, the machines that may have one, in the order to ask them
}

// delegateDecision is what one pass decides.
type delegateDecision struct {
	acting      bool     // this machine acts as the delegate
	alternates  []string // the alternates a registration names
	roleChanged bool     // acting differs from the previous pass
	register    bool     // register with every search server now
}

// delegateRole is the delegate loop's memory between passes (the registrar's). It holds no
// I/O: the loop hands it each pass and does what it decides.
type delegateRole struct {
	reg registrar
}

// step decides one pass: who acts (actsAsDelegate), the alternates to name (alternatesOf), and
// whether the registration is due (registrar.step — never while this machine leaves, though it
// acts until its entry is gone).
func (r *delegateRole) step(p delegatePass) delegateDecision {
	d := delegateDecision{acting: actsAsDelegate(p), alternates: alternatesOf(p.entries, p.self)}
	d.roleChanged, d.register = r.reg.step(d.acting, p.leaving, d.alternates, p.now)
	return d
}

// actsAsDelegate reports whether this machine should act as the delegate: it is the live
// machine with the smallest name in the view, or every machine ranked before it in the view
// fails its health check — a killed or cut-off delegate is replaced within a second or two,
// without waiting for its lease to expire, and even when etcd has lost quorum and cannot expire
// it at all. Two machines may both register for a while; the search server keeps the latest
// registration with its alternates, and either answers correctly. A leaving machine is in line
// like any other until its entry is gone: it serves until then.
func actsAsDelegate(p delegatePass) bool {
	if len(p.entries) == 0 {
		return false
	}
	if !p.quorum {
		// Without quorum this machine cannot tell "the others are dead" from "I am cut off", and
		// the view keeps the dead machines' entries (their leases cannot expire). A machine it
		// reaches that has quorum belongs to the side that decides: that side names the
		// delegate (a machine cut off only one way — it reaches the others, they do not reach
		// it — would otherwise register too, alternating with the real delegate). With no
		// quorum anywhere it reaches, it acts only while its copies and those of the machines
		// it reaches cover every seller: a cut-off machine with part of the data would register
		// answers that are always incomplete.
		if quorumAmong(p) || !reachableCover(p) {
			return false
		}
	}
	for _, e := range p.entries {
		if e.Name >= p.self {
			break
		}
		if p.probe(e.URL).OK {
			return false
		}
	}
	return true
}

// quorumAmong reports whether a machine of the view other than this one answers and has quorum.
func quorumAmong(p delegatePass) bool {
	for _, e := range p.entries {
		if e.Name != p.self && p.probe(e.URL).Quorum {
			return true
		}
	}
	return false
}

// reachableCover reports whether every seller the alliance knows has a copy here or, as the
// view says, on a machine this one reaches. A holder the view no longer has cannot be reached.
func reachableCover(p delegatePass) bool {
	urls := make(map[string]string, len(p.entries))
	for _, e := range p.entries {
		urls[e.Name] = e.URL
	}
	for _, c := range p.copies() {
		if c.here {
			continue
		}
		covered := false
		for _, holder := range c.holders {
			if url, ok := urls[holder]; ok && holder != p.self && p.probe(url).OK {
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

// maxAlternates is how many other machines a registration names as alternates.
const maxAlternates = 4

// alternatesOf are the SellerService URLs of the machines a search server should ask when the
// delegate self fails or is slow: the other live machines of the view (entries, sorted by name),
// those after self in name order first (the delegate's successors), then those before it (which
// it found unreachable, or it would not act), at most maxAlternates. Any machine can answer
// getTrips for the whole alliance.
func alternatesOf(entries []machineEntry, self string) []string {
	var after, before []string
	for _, e := range entries {
		switch {
		case e.Name > self:
			after = append(after, e.URL+sellerPath)
		case e.Name < self:
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
