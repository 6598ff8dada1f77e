package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// statusDoc is the part of an airline server's GET /status that alliancectl reads.
type statusDoc struct {
	Name     string         `json:"name"`
	Alliance string         `json:"alliance"`
	Delegate string         `json:"delegate"`
	Self     machineEntry   `json:"self"`
	Joining  bool           `json:"joining"`
	Leaving  bool           `json:"leaving"`
	View     []machineEntry `json:"view"`
	Round    struct {
		ID         int64  `json:"id"`
		Phase      string `json:"phase"`
		LastResult string `json:"last_result"`
	} `json:"round"`
	Member *struct {
		Leader    string
		IsLeader  bool
		IsLearner bool
		HasQuorum bool
	} `json:"member"`
}

// machineEntry is one machine of an alliance's view.
type machineEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
}

// registrations is the search server's GET /Services/FlightsSearchReg/.
type registrations struct {
	Registrations []struct {
		Name       string    `json:"name"`
		URI        string    `json:"uri"`
		Alternates []string  `json:"alternates"`
		LastSeen   time.Time `json:"last_seen"`
		Stale      bool      `json:"stale"`
	} `json:"registrations"`
}

func cmdStatus(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("status", "status   (processes, delegate, placement, quorum)", out)
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	s, _, err := openState(*dir)
	if err != nil {
		return err
	}
	return writeStatus(ctx, out, s)
}

// machineStatus is one machine's process state and, if it answered, its /status.
type machineStatus struct {
	proc  *Proc
	state procState
	doc   *statusDoc
	err   error
}

// writeStatus asks every process of s how it is and writes the answer for a human.
func writeStatus(ctx context.Context, out io.Writer, s *State) error {
	c, err := s.client(2 * time.Second)
	if err != nil {
		return err
	}
	ms := s.machines("")
	got := make([]machineStatus, len(ms))
	var wg sync.WaitGroup
	for i, p := range ms {
		got[i] = machineStatus{proc: p, state: inspect(*p)}
		if got[i].state != procRunning {
			continue // a paused process would only time out
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var doc statusDoc
			if got[i].err = getJSON(ctx, c, p.URL()+"/status", &doc); got[i].err == nil {
				got[i].doc = &doc
			}
		}()
	}
	wg.Wait()

	for _, p := range s.Procs {
		if p.Kind != kindSearch {
			continue
		}
		fmt.Fprintf(out, "search server %s: pid %d %v", p.URL(), p.Pid, inspect(p))
		var regs registrations
		if err := getJSON(ctx, c, p.URL()+"/Services/FlightsSearchReg/", &regs); err != nil {
			fmt.Fprintf(out, " (registrations: %v)\n", err)
		} else {
			var list []string
			for _, r := range regs.Registrations {
				line := fmt.Sprintf("%s → %s (+%d alternates)", r.Name, r.URI, len(r.Alternates))
				if r.Stale {
					line += " STALE, silent since " + r.LastSeen.Format(time.RFC3339)
				}
				list = append(list, line)
			}
			fmt.Fprintf(out, "; registered: %s\n", orNone(strings.Join(list, ", ")))
		}
	}
	network := writeProxies(ctx, out, s)
	for _, a := range s.Alliances {
		var mine []machineStatus
		for _, m := range got {
			if m.proc.Alliance == a.Name {
				mine = append(mine, m)
			}
		}
		writeAlliance(out, a.Name, mine, network)
	}
	return nil
}

// writeProxies writes the proxy daemon's line and returns each machine's network state for
// the machine tables: "partitioned", "proxied", "direct", or "?" when the daemon did not answer.
func writeProxies(ctx context.Context, out io.Writer, s *State) map[string]string {
	network := map[string]string{}
	pd := s.proxyd()
	for _, m := range s.machines("") {
		switch {
		case m.Advertise == nil:
			network[m.Name] = "direct"
		default:
			network[m.Name] = "?"
		}
	}
	if pd == nil {
		return network
	}
	fmt.Fprintf(out, "proxy daemon %s: pid %d %v", pd.URL(), pd.Pid, inspect(*pd))
	ms, err := proxiesStatus(ctx, s)
	if err != nil {
		fmt.Fprintf(out, " (%v)\n", err)
		return network
	}
	for _, m := range ms {
		network[m.Name] = "proxied"
		if m.Partitioned {
			network[m.Name] = "PARTITIONED"
		}
	}
	fmt.Fprintf(out, "; %d processes behind proxies; partitioned: %s\n", len(ms), orNone(strings.Join(partitionedNames(ms), ", ")))
	return network
}

func writeAlliance(out io.Writer, name string, ms []machineStatus, network map[string]string) {
	delegates, leaders := map[string][]string{}, map[string]bool{}
	quorum := 0
	var view []machineEntry
	for _, m := range ms {
		if m.doc == nil {
			continue
		}
		delegates[m.doc.Delegate] = append(delegates[m.doc.Delegate], m.proc.Name)
		if m.doc.Member != nil && m.doc.Member.HasQuorum {
			quorum++
			leaders[m.doc.Member.Leader] = true
		}
		if view == nil || m.proc.Name == m.doc.Delegate {
			view = m.doc.View // the delegate's view is the one searches use
		}
	}
	fmt.Fprintf(out, "\nalliance %s: delegate %s; etcd leader %s; quorum: %d of %d answering machines see a leader\n",
		name, describeDelegates(delegates), orNone(strings.Join(sortedKeys(leaders), " or ")), quorum, countAnswering(ms))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tPID\tPROCESS\tNETWORK\tPRIMARIES\tBACKUPS\tROUND\tETCD")
	for _, m := range ms {
		row := []string{m.proc.Name, fmt.Sprint(m.proc.Pid), m.state.String(), orNone(network[m.proc.Name])}
		switch {
		case m.doc != nil:
			d := m.doc
			row = append(row, orNone(strings.Join(d.Self.Primaries, ",")), orNone(strings.Join(d.Self.Backups, ",")),
				roundText(d), etcdText(d))
		case m.err != nil:
			row = append(row, "-", "-", "-", "no /status: "+shorten(m.err.Error(), 60))
		default:
			row = append(row, "-", "-", "-", "-")
		}
		fmt.Fprintf(tw, "  %s\n", strings.Join(row, "\t"))
	}
	tw.Flush()
	if view != nil {
		var names []string
		for _, e := range view {
			names = append(names, e.Name)
		}
		slices.Sort(names)
		fmt.Fprintf(out, "  machines in the view: %s\n", strings.Join(names, " "))
		fmt.Fprintf(out, "  sellers (as the view says): %s\n", sellerLine(view))
	}
}

func describeDelegates(d map[string][]string) string {
	switch len(d) {
	case 0:
		return "unknown (no machine answered)"
	case 1:
		for name, by := range d {
			return fmt.Sprintf("%s (all %d answering machines agree)", orNone(name), len(by))
		}
	}
	var parts []string
	for _, name := range sortedKeys(d) {
		parts = append(parts, fmt.Sprintf("%s according to %s", orNone(name), strings.Join(d[name], ",")))
	}
	return "DISAGREEMENT: " + strings.Join(parts, "; ")
}

func roundText(d *statusDoc) string {
	t := d.Round.Phase
	if d.Round.LastResult != "" {
		t += " (last " + d.Round.LastResult + ")"
	}
	if d.Joining {
		t += " joining"
	}
	if d.Leaving {
		t += " leaving"
	}
	return t
}

func etcdText(d *statusDoc) string {
	if d.Member == nil {
		return "-"
	}
	role := "voter"
	if d.Member.IsLearner {
		role = "learner"
	}
	if d.Member.IsLeader {
		role += " leader"
	}
	if !d.Member.HasQuorum {
		role += " NO QUORUM"
	}
	return role
}

// sellerLine lists each seller's primary and backup holder from a view.
func sellerLine(view []machineEntry) string {
	prim, back := map[string]string{}, map[string][]string{}
	for _, e := range view {
		for _, s := range e.Primaries {
			prim[s] = e.Name
		}
		for _, s := range e.Backups {
			back[s] = append(back[s], e.Name)
		}
	}
	sellers := sortedKeys(prim)
	for s := range back {
		if !slices.Contains(sellers, s) {
			sellers = append(sellers, s)
		}
	}
	slices.Sort(sellers)
	var parts []string
	for _, s := range sellers {
		parts = append(parts, fmt.Sprintf("%s %s/%s", s, orNone(prim[s]), orNone(strings.Join(back[s], "+"))))
	}
	return strings.Join(parts, "  ") + "   (seller primary/backup)"
}

func countAnswering(ms []machineStatus) int {
	n := 0
	for _, m := range ms {
		if m.doc != nil {
			n++
		}
	}
	return n
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// sortedKeys is the keys of m in order; stats.go and proxyd.go use it too.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
