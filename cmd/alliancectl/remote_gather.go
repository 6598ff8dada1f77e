package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// remoteAlliance is one alliance as alliancectl found it from a host that started nothing.
type remoteAlliance struct {
	name     string
	source   string        // where it was read, for a human
	tree     *treeAlliance // --endpoints: what the coordination tree says
	etcd     *etcdView     // --endpoints: etcd's own answers; --search: the delegate's member list
	machines []remoteMachine
	problem  error // why nothing of it could be read (its delegate does not answer)
}

// remoteMachine is one machine of a remote alliance and its /status, when it answered.
type remoteMachine struct {
	machineStatus
	url    string // its advertised URL, "" when only etcd knows it
	listed bool   // in the tree's machines (--endpoints) or the delegate's view (--search)
}

// gather reads every alliance the remote flags point at (only rm.alliance when given).
// Endpoints that did not answer while others did are returned as notes.
func (rm *remote) gather(ctx context.Context) ([]*remoteAlliance, []string, error) {
	if rm.search != "" {
		return rm.gatherBySearch(ctx)
	}
	return rm.gatherByEndpoints(ctx)
}

// gatherByEndpoints reads the coordination tree and etcd's members through the endpoints, then
// asks every machine with an entry in the tree for its /status.
func (rm *remote) gatherByEndpoints(ctx context.Context) ([]*remoteAlliance, []string, error) {
	eps, failed, err := rm.reachEndpoints(ctx, "--endpoints", rm.endpoints)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	for _, f := range failed {
		notes = append(notes, "not answering: "+f.Error())
	}
	cli, err := rm.etcdClient(eps)
	if err != nil {
		return nil, notes, fmt.Errorf("--endpoints: %w", err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ev, err := readEtcd(ctx, cli, eps)
	if err != nil {
		return nil, notes, fmt.Errorf("--endpoints: %w", err)
	}
	for _, ep := range rm.endpoints {
		if !slices.Contains(eps, ep) {
			ev.Answers[ep] = "" // did not answer reachEndpoints
		}
	}
	names, err := treeAllianceNames(ctx, cli)
	if err != nil {
		return nil, notes, fmt.Errorf("--endpoints: reading the tree: %w", err)
	}
	if names, err = rm.pick(names, "the tree at --endpoints"); err != nil {
		return nil, notes, err
	}
	var out []*remoteAlliance
	for _, n := range names {
		t, err := readTreeAlliance(ctx, cli, n)
		if err != nil {
			return nil, notes, fmt.Errorf("--endpoints: reading /alliances/%s/: %w", n, err)
		}
		a := &remoteAlliance{name: n, tree: t, etcd: ev,
			source: "read from its coordination tree through " + strings.Join(eps, ",")}
		var members []string
		for _, m := range ev.Members {
			members = append(members, m.Name)
		}
		a.machines = machinesOf(t.Machines, members)
		out = append(out, a)
	}
	rm.fetchStatuses(ctx, out)
	return out, notes, nil
}

// pick keeps the alliance --alliance names, refusing one not among names (found in where).
func (rm *remote) pick(names []string, where string) ([]string, error) {
	if rm.alliance == "" {
		return names, nil
	}
	if !slices.Contains(names, rm.alliance) {
		return nil, fmt.Errorf("--alliance: no alliance %q in %s (it has: %s)", rm.alliance, where, orNone(strings.Join(names, ", ")))
	}
	return []string{rm.alliance}, nil
}

// machinesOf lists the machines of entries (listed, with their URLs) and then the etcd members
// that have no entry (a machine down, or not yet joined), by name.
func machinesOf(entries []machineEntry, members []string) []remoteMachine {
	var out []remoteMachine
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name] = true
		out = append(out, remoteMachine{machineStatus: machineStatus{proc: &Proc{Name: e.Name, Zone: e.Zone}, state: procRunning},
			url: statusBase(e.URL), listed: true})
	}
	for _, m := range members {
		if m != "" && !seen[m] {
			seen[m] = true
			out = append(out, remoteMachine{machineStatus: machineStatus{proc: &Proc{Name: m}, state: procGone}})
		}
	}
	slices.SortFunc(out, func(a, b remoteMachine) int { return strings.Compare(a.proc.Name, b.proc.Name) })
	return out
}

// statusBase is the scheme://host of a machine's advertised URL, where its /status is.
func statusBase(advertised string) string {
	u, err := url.Parse(advertised)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// fetchStatuses asks every listed machine of the alliances for its /status, all at once.
func (rm *remote) fetchStatuses(ctx context.Context, alliances []*remoteAlliance) {
	c := rm.httpClient(2 * time.Second)
	defer c.CloseIdleConnections()
	var wg sync.WaitGroup
	for _, a := range alliances {
		for i := range a.machines {
			m := &a.machines[i]
			if m.url == "" {
				continue
			}
			wg.Go(func() {
				var doc statusDoc
				if err := getJSON(ctx, c, m.url+"/status", &doc); err != nil {
					m.err = rm.explain(m.proc.Name+"'s URL", m.url, err)
					return
				}
				m.doc = &doc
			})
		}
	}
	wg.Wait()
}

// gatherBySearch reads the search server's registrations, then each alliance's delegate's
// /status (or the first alternate's that answers): its view names the machines and their URLs,
// its etcd member the cluster's members. Then it asks every machine of the view for its /status.
func (rm *remote) gatherBySearch(ctx context.Context) ([]*remoteAlliance, []string, error) {
	c := rm.httpClient(3 * time.Second)
	defer c.CloseIdleConnections()
	regs, err := rm.registrations(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	notes := []string{fmt.Sprintf("search server %s: registered: %s", rm.search, regs.text())}
	var names []string
	for _, r := range regs.Registrations {
		names = append(names, r.Name)
	}
	if names, err = rm.pick(names, "the search server's registrations (--search)"); err != nil {
		return nil, notes, err
	}
	var out []*remoteAlliance
	for _, r := range regs.Registrations {
		if !slices.Contains(names, r.Name) {
			continue
		}
		a := &remoteAlliance{name: r.Name}
		out = append(out, a)
		doc, from, err := rm.delegateStatus(ctx, c, append([]string{r.URI}, r.Alternates...))
		if err != nil {
			a.problem = err
			continue
		}
		a.source = fmt.Sprintf("registered at %s; read from %s's /status at %s", rm.search, doc.Name, from)
		var members []string
		if doc.Member != nil {
			a.etcd = &etcdView{}
			for _, m := range doc.Member.Members {
				members = append(members, m.Name)
				a.etcd.Members = append(a.etcd.Members, etcdMember{Name: m.Name, ID: m.ID, ClientURLs: m.ClientURLs, Learner: m.IsLearner})
				if m.Name == doc.Member.Leader {
					a.etcd.LeaderID = m.ID
				}
			}
		}
		a.machines = machinesOf(doc.View, members)
	}
	rm.fetchStatuses(ctx, out)
	return out, notes, nil
}

// registrations reads the search server's registrations.
func (rm *remote) registrations(ctx context.Context, c *http.Client) (registrations, error) {
	var regs registrations
	if err := getJSON(ctx, c, rm.search+"/Services/FlightsSearchReg/", &regs); err != nil {
		return regs, rm.explain("--search", rm.search, err)
	}
	return regs, nil
}

// delegateStatus is the /status of the first of uris (a registration's delegate, then its
// alternates) that answers, and the base URL it came from.
func (rm *remote) delegateStatus(ctx context.Context, c *http.Client, uris []string) (*statusDoc, string, error) {
	var errs []error
	for _, u := range uris {
		base := statusBase(u)
		var doc statusDoc
		err := getJSON(ctx, c, base+"/status", &doc)
		if err == nil {
			return &doc, base, nil
		}
		errs = append(errs, rm.explain("a delegate the search server names", base, err))
	}
	return nil, "", joinErrors(errs)
}

// endpointsOf are the etcd client URLs of alliance a as its delegate's /status lists its
// members (replicas and backup through --search).
func (rm *remote) endpointsOf(ctx context.Context) ([]string, error) {
	c := rm.httpClient(3 * time.Second)
	defer c.CloseIdleConnections()
	regs, err := rm.registrations(ctx, c)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, r := range regs.Registrations {
		names = append(names, r.Name)
	}
	if rm.alliance == "" && len(names) != 1 {
		return nil, usagef("--alliance: the search server knows %d alliances (%s): name one", len(names), orNone(strings.Join(names, ", ")))
	}
	if names, err = rm.pick(names, "the search server's registrations (--search)"); err != nil {
		return nil, err
	}
	for _, r := range regs.Registrations {
		if r.Name != names[0] {
			continue
		}
		doc, _, err := rm.delegateStatus(ctx, c, append([]string{r.URI}, r.Alternates...))
		if err != nil {
			return nil, err
		}
		var eps []string
		if doc.Member != nil {
			for _, m := range doc.Member.Members {
				eps = append(eps, m.ClientURLs...)
			}
		}
		if len(eps) == 0 {
			return nil, fmt.Errorf("--search: %s's /status lists no etcd client URL: give --endpoints", doc.Name)
		}
		return eps, nil
	}
	return nil, fmt.Errorf("--search: alliance %s is not registered", names[0])
}
