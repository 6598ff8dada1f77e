package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// remoteReplicas is replicas K on an alliance found through the remote flags: the guarded
// write of its config through its etcd (--endpoints, or the client URLs its delegate's /status
// lists), a wait until every machine with an entry in the tree re-placed, and the config read
// back from the tree.
func remoteReplicas(ctx context.Context, rm *remote, k int, wait time.Duration, out io.Writer) error {
	flagName, endpoints := "--endpoints", rm.endpoints
	if rm.search != "" {
		var err error
		if endpoints, err = rm.endpointsOf(ctx); err != nil {
			return err
		}
		flagName = "the etcd client URLs " + rm.search + " names"
	}
	eps, _, err := rm.reachEndpoints(ctx, flagName, endpoints)
	if err != nil {
		return err
	}
	cli, err := rm.etcdClient(eps)
	if err != nil {
		return fmt.Errorf("%s: %w", flagName, err)
	}
	defer cli.Close()
	names, err := treeAllianceNames(ctx, cli)
	if err != nil {
		return fmt.Errorf("%s: reading the tree: %w", flagName, err)
	}
	if names, err = rm.pick(names, "the tree at "+flagName); err != nil {
		return err
	}
	if len(names) != 1 {
		return usagef("--alliance: the tree holds %d alliances (%s): name one", len(names), orNone(strings.Join(names, ", ")))
	}
	alliance := names[0]
	tree, err := readTreeAlliance(ctx, cli, alliance)
	if err != nil {
		return fmt.Errorf("%s: reading /alliances/%s/: %w", flagName, alliance, err)
	}
	var targets []statusTarget
	for _, m := range tree.Machines {
		targets = append(targets, statusTarget{Name: m.Name, URL: statusBase(m.URL)})
	}
	c := rm.httpClient(2 * time.Second)
	defer c.CloseIdleConnections()
	before := roundsOf(ctx, c, targets)
	from, err := putReplicas(ctx, cli, alliance, k)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "alliance %s: replicas %d → %d (through %s)\n", alliance, from, k, strings.Join(eps, ","))
	if wait > 0 {
		if len(targets) == 0 {
			return fmt.Errorf("alliance %s has no machine in its tree to wait for", alliance)
		}
		if err := waitReplicas(ctx, c, targets, before, k, wait, out); err != nil {
			return err
		}
	}
	back, err := readTreeAlliance(ctx, cli, alliance)
	if err != nil {
		return fmt.Errorf("%s: reading /alliances/%s/config back: %w", flagName, alliance, err)
	}
	fmt.Fprintf(out, "/alliances/%s/config in the tree says replicas %d\n", alliance, back.Replicas)
	if back.Replicas != k {
		return fmt.Errorf("/alliances/%s/config says replicas %d, not %d: changed again meanwhile?", alliance, back.Replicas, k)
	}
	return nil
}
