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
	sum := summarizeAlliance(ms)
	fmt.Fprintf(out, "\nalliance %s: %s\n", name, sum.headline())
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tZONE\tPID\tPROCESS\tNETWORK\tPRIMARIES\tBACKUPS\tROUND\tETCD")
	for _, m := range ms {
		zone := m.proc.Zone
		if zone == "" {
			zone = m.proc.Name
		}
		row := []string{m.proc.Name, m.zone(zone), fmt.Sprint(m.proc.Pid), m.state.String(), orNone(network[m.proc.Name])}
		fmt.Fprintf(tw, "  %s\n", strings.Join(append(row, m.statusColumns()...), "\t"))
	}
	tw.Flush()
	writeView(out, sum.view)
	writeRemovals(out, ms, time.Now())
}

// zone is the machine's zone as its /status says, else fallback.
func (m machineStatus) zone(fallback string) string {
	if m.doc != nil && m.doc.Zone != "" {
		return m.doc.Zone
	}
	return fallback
}

// statusColumns are the PRIMARIES, BACKUPS, ROUND and ETCD columns of a machine's row.
func (m machineStatus) statusColumns() []string {
	switch {
	case m.doc != nil:
		d := m.doc
		return []string{orNone(strings.Join(d.Self.Primaries, ",")), orNone(strings.Join(d.Self.Backups, ",")), roundText(d), etcdText(d)}
	case m.err != nil:
		return []string{"-", "-", "-", "no /status: " + shorten(m.err.Error(), 60)}
	}
	return []string{"-", "-", "-", "-"}
}

// allianceSummary is what the answering machines of one alliance say together.
type allianceSummary struct {
	delegates map[string][]string // delegate → the machines that name it
	leaders   map[string]bool     // etcd leaders named by machines with a quorum
	quorum    int                 // machines that see a quorum
	answering int
	view      []machineEntry // the delegate's view (else the first answering machine's)
	replicas  map[int]bool
}

func summarizeAlliance(ms []machineStatus) allianceSummary {
	sum := allianceSummary{delegates: map[string][]string{}, leaders: map[string]bool{}, replicas: map[int]bool{}}
	for _, m := range ms {
		if m.doc == nil {
			continue
		}
		sum.answering++
		if m.doc.Replicas > 0 {
			sum.replicas[m.doc.Replicas] = true
		}
		sum.delegates[m.doc.Delegate] = append(sum.delegates[m.doc.Delegate], m.proc.Name)
		if m.doc.Member != nil && m.doc.Member.HasQuorum {
			sum.quorum++
			sum.leaders[m.doc.Member.Leader] = true
		}
		if sum.view == nil || m.proc.Name == m.doc.Delegate {
			sum.view = m.doc.View // the delegate's view is the one searches use
		}
	}
	return sum
}

// headline is the alliance's summary line after its name.
func (a allianceSummary) headline() string {
	return fmt.Sprintf("replicas %s; delegate %s; etcd leader %s; quorum: %d of %d answering machines see a leader",
		replicasText(a.replicas), describeDelegates(a.delegates), orNone(strings.Join(sortedKeys(a.leaders), " or ")), a.quorum, a.answering)
}

// writeView writes the machines of a view and each seller's holders as it says.
func writeView(out io.Writer, view []machineEntry) {
	if view == nil {
		return
	}
	var names []string
	for _, e := range view {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	fmt.Fprintf(out, "  machines in the view: %s\n", strings.Join(names, " "))
	fmt.Fprintf(out, "  sellers (as the view says): %s\n", sellerLine(view))
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
