package main

import (
	"fmt"
	"io"
	"time"
)

// removal is one etcd member removal as an airline server's GET /status reports it
// (member.Removal): the last one recorded for each member name in /coord/removals/.
type removal struct {
	Member string    `json:"member"`
	ID     string    `json:"id"`
	By     string    `json:"by"`
	Reason string    `json:"reason"` // unreachable, stale or leave
	Error  string    `json:"error"`
	At     time.Time `json:"at"`
}

// writeRemovals writes a line per removed member: which, by whom, why and when. Every machine
// reads the same etcd records, but one that lags may still show an older record of a name: the
// latest of each name wins. Nothing is written when no machine answered.
func writeRemovals(out io.Writer, ms []machineStatus, now time.Time) {
	latest, answered := map[string]removal{}, false
	for _, m := range ms {
		if m.doc == nil {
			continue
		}
		answered = true
		for _, r := range m.doc.Removals {
			if old, ok := latest[r.Member]; !ok || r.At.After(old.At) {
				latest[r.Member] = r
			}
		}
	}
	if !answered {
		return
	}
	if len(latest) == 0 {
		fmt.Fprintln(out, "  etcd member removals: none recorded")
		return
	}
	fmt.Fprintln(out, "  etcd member removals (the last of each member):")
	for _, name := range sortedKeys(latest) {
		fmt.Fprintf(out, "    %s\n", removalText(latest[name], now))
	}
}

// removalText is one removal for a human, e.g. "m3 (id 8e9e05c52164694d) removed by m1 as
// unreachable at 2026-11-24T19:14:39Z (3m0s ago): <the probe's error>".
func removalText(r removal, now time.Time) string {
	what := fmt.Sprintf("removed by %s for %s", orNone(r.By), orNone(r.Reason))
	switch {
	case r.Reason == "leave" && r.By == r.Member:
		what = "left cleanly"
	case r.Reason == "unreachable":
		what = fmt.Sprintf("removed by %s as unreachable", orNone(r.By))
	case r.Reason == "stale":
		what = fmt.Sprintf("removed by %s as stale (a former member with the joiner's name or peer URL)", orNone(r.By))
	}
	t := fmt.Sprintf("%s (id %s) %s at %s (%s ago)", r.Member, orNone(r.ID), what,
		r.At.UTC().Format(time.RFC3339), max(now.Sub(r.At), 0).Round(time.Second))
	if r.Error != "" {
		t += ": " + shorten(r.Error, 160)
	}
	return t
}
