package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// writeRemoteStatus writes what status shows of alliances found through the remote flags:
// per alliance the delegate, the etcd leader and quorum, each machine's holdings as its
// /status says, each seller's holders (as the view and, through --endpoints, the tree say).
func writeRemoteStatus(ctx context.Context, out io.Writer, rm *remote) error {
	alliances, notes, err := rm.gather(ctx)
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	if err != nil {
		return err
	}
	if len(alliances) == 0 {
		return fmt.Errorf("no alliance found: %s", orNone(strings.Join(notes, "; ")))
	}
	read := 0
	for _, a := range alliances {
		writeRemoteAlliance(out, a)
		if a.problem == nil {
			read++
		}
	}
	if read == 0 {
		return fmt.Errorf("no alliance could be read (see above)")
	}
	return nil
}

// writeRemoteAlliance writes one alliance found remotely.
func writeRemoteAlliance(out io.Writer, a *remoteAlliance) {
	if a.problem != nil {
		fmt.Fprintf(out, "\nalliance %s: neither its delegate nor an alternate answers:\n  %v\n", a.name, a.problem)
		return
	}
	ms := make([]machineStatus, len(a.machines))
	for i, m := range a.machines {
		ms[i] = m.machineStatus
	}
	sum := summarizeAlliance(ms)
	fmt.Fprintf(out, "\nalliance %s (%s)\n  %s\n", a.name, a.source, sum.headline())
	if a.etcd != nil {
		fmt.Fprintf(out, "  etcd: %s\n", a.etcd.text(a.tree != nil))
	}
	listed := "IN VIEW"
	if a.tree != nil {
		listed = "IN TREE"
		fmt.Fprintf(out, "  tree: replicas %s, %d sellers in the catalog, %d booking records\n",
			orNone(fmt.Sprint(a.tree.Replicas)), len(a.tree.Catalog), a.tree.Bookings)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  NAME\tZONE\tURL\t%s\tPRIMARIES\tBACKUPS\tROUND\tETCD\n", listed)
	for _, m := range a.machines {
		in := "yes"
		if !m.listed {
			in = "NO (an etcd member without an entry: down, or not joined)"
		}
		row := []string{m.proc.Name, m.zone(orNone(m.proc.Zone)), orNone(m.url), in}
		fmt.Fprintf(tw, "  %s\n", strings.Join(append(row, m.statusColumns()...), "\t"))
	}
	tw.Flush()
	writeView(out, sum.view)
	if a.tree != nil {
		view, unheld := a.tree.holderView()
		fmt.Fprintf(out, "  sellers (as the tree says): %s\n", sellerLine(view))
		if len(unheld) > 0 {
			fmt.Fprintf(out, "  MISSING: sellers the alliance knows that no machine holds: %s\n", strings.Join(unheld, " "))
		}
	}
	writeRemovals(out, ms, time.Now())
}

// text is the cluster for a human: its members and roles, the leader, and (when the endpoints
// were asked) how many answered.
func (v *etcdView) text(asked bool) string {
	var ms []string
	for _, m := range v.Members {
		role := "voter"
		if m.Learner {
			role = "learner"
		}
		ms = append(ms, m.Name+" ("+role+")")
	}
	t := fmt.Sprintf("members %s; leader %s", orNone(strings.Join(ms, ", ")), orNone(v.leader()))
	if asked {
		answered := 0
		for _, name := range v.Answers {
			if name != "" {
				answered++
			}
		}
		t += fmt.Sprintf("; %d of %d endpoints answer", answered, len(v.Answers))
	}
	return t
}
