package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

func cmdPartition(ctx context.Context, args []string, out io.Writer) error {
	s, p, err := target(args, out, "partition", "partition NAME   (cut a machine off: nothing reaches it, nothing it sends arrives)", nil)
	if err != nil {
		return err
	}
	if p.Kind != kindAirline {
		return usagef("NAME: %s is not a machine (partition cuts an airline server off)", p.Name)
	}
	if p.Advertise == nil {
		return errNoProxyd
	}
	var ms []machineNet
	if err := proxydCall(ctx, s, http.MethodPost, "/ctl/partition/"+p.Name, nil, &ms); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s is partitioned: its SOAP, etcd peer and etcd client proxies (%s, %s, %s) drop every byte\n"+
		"in both directions without closing, and the connections %s opens to the other machines' and the\n"+
		"search server's proxies are silenced too. The others stop hearing from it: its lease expires\n"+
		"(--session-ttl), they repair around it and, after --dead-member-grace, remove its etcd member.\n"+
		"`heal` ends it.\n",
		p.Name, p.Advertise.Listen, p.Advertise.Peer, p.Advertise.Client, p.Name)
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		fmt.Fprintf(out, "WARNING: without Linux /proc the proxies cannot tell %s's own connections apart: only what\n"+
			"reaches %s is cut; what it sends still arrives (see docs/operations/alliancectl.md)\n", p.Name, p.Name)
	}
	if others := partitionedNames(ms); len(others) > 1 {
		fmt.Fprintf(out, "partitioned now: %s\n", strings.Join(others, ", "))
	}
	return nil
}

func cmdHeal(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("heal", "heal   (remove every toxic from every proxy: end all partitions)", out)
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	s, _, err := openState(*dir)
	if err != nil {
		return err
	}
	var got struct {
		Healed []string `json:"healed"`
	}
	if err := proxydCall(ctx, s, http.MethodPost, "/ctl/heal", nil, &got); err != nil {
		return err
	}
	if len(got.Healed) == 0 {
		fmt.Fprintln(out, "nothing was partitioned; every toxic removed from every proxy")
		return nil
	}
	fmt.Fprintf(out, "healed %s: every toxic removed from every proxy and the silenced connections closed;\n"+
		"it reconnects and rejoins its alliance (as a new etcd member if it was removed meanwhile)\n",
		strings.Join(got.Healed, ", "))
	return nil
}

func partitionedNames(ms []machineNet) []string {
	var out []string
	for _, m := range ms {
		if m.Partitioned {
			out = append(out, m.Name)
		}
	}
	return out
}
