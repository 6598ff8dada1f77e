package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// writeAlliance writes one alliance's summary line, its machine table and the placement its
// delegate's view shows.
func writeAlliance(out io.Writer, name string, ms []machineStatus, network map[string]string) {
	delegates, leaders := map[string][]string{}, map[string]bool{}
	quorum := 0
	var view []machineEntry
	replicas := map[int]bool{}
	for _, m := range ms {
		if m.doc == nil {
			continue
		}
		if m.doc.Replicas > 0 {
			replicas[m.doc.Replicas] = true
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
	fmt.Fprintf(out, "\nalliance %s: replicas %s; delegate %s; etcd leader %s; quorum: %d of %d answering machines see a leader\n",
		name, replicasText(replicas), describeDelegates(delegates), orNone(strings.Join(sortedKeys(leaders), " or ")), quorum, countAnswering(ms))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tZONE\tPID\tPROCESS\tNETWORK\tPRIMARIES\tBACKUPS\tROUND\tETCD")
	for _, m := range ms {
		zone := m.proc.Zone
		if zone == "" {
			zone = m.proc.Name
		}
		if m.doc != nil && m.doc.Zone != "" {
			zone = m.doc.Zone
		}
		row := []string{m.proc.Name, zone, fmt.Sprint(m.proc.Pid), m.state.String(), orNone(network[m.proc.Name])}
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
	writeRemovals(out, ms, time.Now())
}

// replicasText is K as the answering machines report it (they agree unless a change is spreading).
func replicasText(seen map[int]bool) string {
	switch len(seen) {
	case 0:
		return "unknown"
	case 1:
		for k := range seen {
			return strconv.Itoa(k)
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(seen)) {
		parts = append(parts, strconv.Itoa(k))
	}
	return "CHANGING (" + strings.Join(parts, " and ") + ")"
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
