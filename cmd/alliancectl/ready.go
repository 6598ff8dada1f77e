package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// settled says why alliance a of s is not yet settled: every machine answers /status, all name
// the same delegate, and every machine's view holds exactly the alliance's machines with each
// seller on one primary and min(K, machines)−1 backups on other machines (K: the alliance's
// replicas, as the machine's /status says). A complete search is
// not enough on its own: an alliance ignores sellers it does not know yet.
func settled(ctx context.Context, c *http.Client, s *State, a string) error {
	var names, sellers []string
	for _, m := range s.machines(a) {
		names = append(names, m.Name)
		sellers = append(sellers, m.Sellers...)
	}
	delegate := ""
	for _, m := range s.machines(a) {
		var doc statusDoc
		if err := getJSON(ctx, c, m.URL()+"/status", &doc); err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		switch {
		case doc.Delegate == "":
			return fmt.Errorf("%s knows no delegate yet", m.Name)
		case delegate != "" && doc.Delegate != delegate:
			return fmt.Errorf("%s says the delegate is %s, others %s", m.Name, doc.Delegate, delegate)
		}
		delegate = doc.Delegate
		if err := checkView(doc.View, names, sellers, doc.Replicas); err != nil {
			return fmt.Errorf("view of %s: %w", m.Name, err)
		}
	}
	return nil
}

// checkView says how view differs from a settled placement of sellers over machines with
// replicas copies each (0: not known yet, taken as 2, the default).
func checkView(view []machineEntry, machines, sellers []string, replicas int) error {
	var got []string
	prim, back := map[string][]string{}, map[string][]string{}
	for _, e := range view {
		got = append(got, e.Name)
		for _, s := range e.Primaries {
			prim[s] = append(prim[s], e.Name)
		}
		for _, s := range e.Backups {
			back[s] = append(back[s], e.Name)
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(machines))
	if !slices.Equal(got, want) {
		return fmt.Errorf("machines %v, want %v", got, want)
	}
	if replicas == 0 {
		replicas = 2
	}
	wantBackups := min(replicas, len(machines)) - 1
	for _, s := range sellers {
		switch {
		case len(prim[s]) != 1:
			return fmt.Errorf("seller %s has primaries [%s], want one", s, strings.Join(prim[s], " "))
		case len(back[s]) != wantBackups:
			return fmt.Errorf("seller %s has backups [%s], want %d", s, strings.Join(back[s], " "), wantBackups)
		case slices.Contains(back[s], prim[s][0]):
			return fmt.Errorf("seller %s has primary and backup on %s", s, prim[s][0])
		}
	}
	return nil
}
