package placement

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// world is a small simulator of an alliance for the tests: the committed holdings of its
// machines, the joiners and leavers of the coming round, and the sellers the tree knows. It
// makes the snapshot of a round and applies a round's Result to reach the next state, as the
// airline servers would.
type world struct {
	machines map[string]Machine // committed members: Name, Primaries, Backups
	joiners  map[string][]string
	leaving  map[string]bool
	known    map[string]bool
	zones    map[string]string // machine (member or joiner) → its zone, when it names one
	replicas int               // the snapshot's Replicas
}

func newWorld() *world {
	return &world{machines: map[string]Machine{}, joiners: map[string][]string{},
		leaving: map[string]bool{}, known: map[string]bool{}, zones: map[string]string{}}
}

func (w *world) snapshot() Snapshot {
	s := Snapshot{Replicas: w.replicas}
	for _, name := range slices.Sorted(maps.Keys(w.machines)) {
		m := w.machines[name]
		m.Leaving = w.leaving[name]
		m.Zone = w.zones[name]
		s.Machines = append(s.Machines, m)
	}
	for _, name := range slices.Sorted(maps.Keys(w.joiners)) {
		s.Machines = append(s.Machines, Machine{Name: name, Zone: w.zones[name], Joining: true, Brings: w.joiners[name]})
	}
	s.Sellers = slices.Sorted(maps.Keys(w.known))
	return s
}

// fail removes a machine, committed or joining, as a crash would.
func (w *world) fail(name string) error {
	_, member := w.machines[name]
	_, joiner := w.joiners[name]
	if !member && !joiner {
		return fmt.Errorf("no machine %q", name)
	}
	delete(w.machines, name)
	delete(w.joiners, name)
	delete(w.leaving, name)
	delete(w.zones, name)
	return nil
}

// apply commits a round: the assignments become the holdings, joiners become members, leavers
// go away, and every seller seen stays known (the tree keeps a seller's node).
func (w *world) apply(s Snapshot, res Result) {
	for _, m := range s.Machines {
		for _, list := range [][]string{m.Primaries, m.Backups, m.Brings} {
			for _, seller := range list {
				w.known[seller] = true
			}
		}
	}
	for _, m := range s.Machines {
		if m.Leaving {
			delete(w.zones, m.Name)
		}
	}
	w.machines = map[string]Machine{}
	for _, a := range res.Assignments {
		w.machines[a.Name] = Machine{Name: a.Name, Primaries: a.Primaries, Backups: a.Backups}
	}
	w.joiners = map[string][]string{}
	w.leaving = map[string]bool{}
}

func (w *world) String() string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(w.machines)) {
		m := w.machines[name]
		fmt.Fprintf(&b, "%s: primaries=%s backups=%s\n", zoned(name, w.zones), list(m.Primaries), list(m.Backups))
	}
	return b.String()
}

// zoned is a machine's name followed by its zone, when it names one.
func zoned(name string, zones map[string]string) string {
	if z := zones[name]; z != "" {
		return name + " [" + z + "]"
	}
	return name
}

func formatResult(res Result) string { return formatResultIn(res, nil) }

// formatResultIn formats res, naming the zone of each machine that has one in zones.
func formatResultIn(res Result, zones map[string]string) string {
	var b strings.Builder
	b.WriteString("assignments:\n")
	for _, a := range res.Assignments {
		fmt.Fprintf(&b, "  %s: primaries=%s backups=%s\n", zoned(a.Name, zones), list(a.Primaries), list(a.Backups))
	}
	if len(res.Transfers) > 0 {
		b.WriteString("transfers:\n")
		for _, t := range res.Transfers {
			fmt.Fprintf(&b, "  %s %s %s -> %s\n", t.Seller, t.Role, t.From, t.To)
		}
	}
	if len(res.Promotions) > 0 {
		b.WriteString("promotions:\n")
		for _, p := range res.Promotions {
			fmt.Fprintf(&b, "  %s on %s\n", p.Seller, p.Machine)
		}
	}
	if len(res.Drops) > 0 {
		b.WriteString("drops:\n")
		for _, d := range res.Drops {
			fmt.Fprintf(&b, "  %s on %s\n", d.Seller, d.Machine)
		}
	}
	if len(res.Lost) > 0 {
		fmt.Fprintf(&b, "lost: %s\n", list(res.Lost))
	}
	return b.String()
}

func list(sellers []string) string {
	if len(sellers) == 0 {
		return "-"
	}
	return strings.Join(sellers, ",")
}

func splitList(v string) []string {
	if v == "" || v == "-" {
		return nil
	}
	return strings.Split(v, ",")
}

// formatSnapshot writes s as scenario commands, so that a failing random round can be pasted
// into a testdata file.
func formatSnapshot(s Snapshot) string {
	var b strings.Builder
	if s.Replicas != 0 {
		fmt.Fprintf(&b, "replicas %d\n", s.Replicas)
	}
	for _, m := range s.Machines {
		zone := ""
		if m.Zone != "" {
			zone = " zone=" + m.Zone
		}
		switch {
		case m.Joining:
			fmt.Fprintf(&b, "join %s%s brings=%s\n", m.Name, zone, list(m.Brings))
		default:
			fmt.Fprintf(&b, "machine %s%s primaries=%s backups=%s\n", m.Name, zone, list(m.Primaries), list(m.Backups))
			if m.Leaving {
				fmt.Fprintf(&b, "leave %s\n", m.Name)
			}
		}
	}
	return b.String()
}
