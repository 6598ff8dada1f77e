package placement

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The replicas property tests drive the simulator through random sequences with K from 1 to 5
// and zones from 1 to 6 (and machines that name no zone), on up to 50 machines and 500 sellers:
// a bootstrap of many machines at once, then joins (with new sellers and new versions),
// crashes, graceful leaves, the loss of a whole zone, changes of K, abandoned rounds, several in
// one round. Every round's Result is checked (checkReplicas, checkBalance; checkResult for the
// two-copy model), planned again from a shuffled snapshot (same Result), and re-planned from its
// own outcome (nothing moves). The big run is
//
//	go test ./alliance/placement/ -run Replicas -rapid.checks=2000

const (
	maxMachinesK = 50
	maxSellersK  = 500
)

// eventK is one round's worth of changes in a world with zones and K.
type eventK struct {
	event
	lostZone   string   // every machine of this zone crashed
	replicas   int      // the new K, 0 if unchanged
	lostCopies int      // copies the crashed machines held after the last applied round
	bootstrap  bool     // the first round: many machines join at once
	before     Snapshot // the outcome of the last applied round, as the next round would see it
}

func (e eventK) kind() string {
	if e.bootstrap {
		return "bootstrap"
	}
	parts := []string{}
	if k := e.event.kind(); k != "" {
		parts = append(parts, k)
	}
	if e.lostZone != "" {
		parts = append(parts, "zone")
	}
	if e.replicas != 0 {
		parts = append(parts, fmt.Sprintf("K=%d", e.replicas))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

// zonedGenerator draws events in a world of at most maxMachines machines over zones zones.
// With crashes set, every round after the bootstrap is a single crash, or now and then a join
// without sellers that makes up for one.
type zonedGenerator struct {
	generator
	zones, maxMachines, maxSellers int
	crashes                        bool
	replicas                       int // the starting K; drawn (0 to 5) when 0
}

// zone draws a zone name, or "" (a machine that is a zone of its own) now and then.
func (g *zonedGenerator) zone(t *rapid.T) string {
	z := rapid.IntRange(-1, 3*g.zones-1).Draw(t, "zone")
	if z < 0 {
		return ""
	}
	return fmt.Sprintf("z%d", z%g.zones)
}

func (g *zonedGenerator) machineName(t *rapid.T) string {
	g.machines++
	return fmt.Sprintf("%c%d", 'a'+rapid.IntRange(0, 25).Draw(t, "letter"), g.machines)
}

// bootstrap starts an alliance: many machines join at once, sharing the sellers.
func (g *zonedGenerator) bootstrap(t *rapid.T, w *world) eventK {
	e := eventK{event: event{join: map[string][]string{}}, bootstrap: true}
	n := rapid.IntRange(max(1, g.maxMachines*3/4), g.maxMachines).Draw(t, "bootstrap machines")
	sellers := rapid.IntRange(g.maxSellers/2, g.maxSellers).Draw(t, "bootstrap sellers")
	for i := range n {
		name := g.machineName(t)
		var brings []string
		for j := i * sellers / n; j < (i+1)*sellers/n; j++ {
			brings = append(brings, fmt.Sprintf("s%03d", j))
		}
		e.join[name] = brings
		w.setZone(name, g.zone(t))
	}
	g.sellers = sellers
	return e
}

// drawEvent draws the next round's changes from the current world (setting joiners' zones).
func (g *zonedGenerator) drawEvent(t *rapid.T, w *world) eventK {
	e := eventK{event: event{join: map[string][]string{}}}
	members := slices.Sorted(maps.Keys(w.machines))
	if g.crashes {
		if len(members) > 1 && rapid.IntRange(0, 3).Draw(t, "crash?") > 0 {
			e.fail = []string{rapid.SampledFrom(members).Draw(t, "crash")}
		} else {
			name := g.machineName(t)
			e.join[name] = nil
			w.setZone(name, g.zone(t))
		}
		return e
	}
	failed := map[string]bool{}
	if len(members) > 0 && rapid.IntRange(0, 11).Draw(t, "zone loss?") == 0 {
		e.lostZone = zone(w.snapshotOf(rapid.SampledFrom(members).Draw(t, "zone of")))
	}
	for _, m := range members {
		switch {
		case e.lostZone != "" && zone(w.snapshotOf(m)) == e.lostZone:
			failed[m] = true
		case len(e.fail) < 2 && rapid.IntRange(0, 15).Draw(t, "fail?") == 0:
			failed[m] = true
		case len(e.leave) < 1 && rapid.IntRange(0, 24).Draw(t, "leave?") == 0:
			e.leave = append(e.leave, m)
		}
		if failed[m] {
			e.fail = append(e.fail, m)
		}
	}
	if rapid.IntRange(0, 7).Draw(t, "change K?") == 0 {
		e.replicas = rapid.IntRange(1, MaxReplicas).Draw(t, "K")
	}
	joins := rapid.IntRange(0, 3).Draw(t, "joins")
	if len(e.fail)+len(e.leave) == 0 && e.replicas == 0 && joins == 0 {
		joins = 1
	}
	known := slices.Sorted(maps.Keys(w.known))
	live := len(members) - len(e.fail) - len(e.leave)
	for range joins {
		if live+len(e.join) >= g.maxMachines {
			break
		}
		name := g.machineName(t)
		var brings []string
		for range rapid.IntRange(0, 20).Draw(t, "new sellers") {
			if g.sellers >= g.maxSellers {
				break
			}
			brings = append(brings, fmt.Sprintf("s%03d", g.sellers))
			g.sellers++
		}
		if len(known) > 0 && rapid.IntRange(0, 3).Draw(t, "new versions?") == 0 {
			for range rapid.IntRange(1, 3).Draw(t, "new versions") {
				if s := rapid.SampledFrom(known).Draw(t, "version of"); !slices.Contains(brings, s) {
					brings = append(brings, s)
				}
			}
		}
		e.join[name] = brings
		w.setZone(name, g.zone(t))
	}
	e.abandon = rapid.IntRange(0, 9).Draw(t, "abandon?") == 0
	return e
}

// snapshotOf returns member name as a snapshot would list it (with its zone).
func (w *world) snapshotOf(name string) Machine {
	m := w.machines[name]
	m.Zone = w.zones[name]
	return m
}

func (w *world) stageK(e eventK) {
	w.stage(e.event)
	if e.replicas != 0 {
		w.replicas = e.replicas
	}
}

// clone copies the world, so that a round can be applied without committing it.
func (w *world) clone() *world {
	c := &world{machines: maps.Clone(w.machines), joiners: maps.Clone(w.joiners), leaving: maps.Clone(w.leaving),
		known: maps.Clone(w.known), zones: maps.Clone(w.zones), replicas: w.replicas}
	return c
}

// checkRound returns every violation of round (s, res): the contract of the planner that
// handled it, and for the general planner the balance bound.
func checkRound(s Snapshot, res Result) []string {
	if twoCopyModelOf(s) {
		return checkResult(s, res)
	}
	return append(checkReplicas(s, res), checkBalance(s, res)...)
}

// runSequenceK plays a random sequence of rounds and checks each (checkRound, input order,
// a steady re-plan), then reports it to observe.
func runSequenceK(t *rapid.T, observe func(e eventK, s Snapshot, res Result)) {
	runSequenceWith(t, &zonedGenerator{}, observe)
}

// runSequenceWith is runSequenceK with the generator's mode (crashes) set by the caller; its
// sizes are drawn here. One sequence in ten is large: 40 to 50 machines, 400 to 500 sellers.
func runSequenceWith(t *rapid.T, g *zonedGenerator, observe func(e eventK, s Snapshot, res Result)) {
	g.zones = rapid.IntRange(1, 6).Draw(t, "zones")
	if rapid.IntRange(0, 9).Draw(t, "large?") == 0 {
		g.maxMachines = rapid.IntRange(40, maxMachinesK).Draw(t, "max machines")
		g.maxSellers = rapid.IntRange(400, maxSellersK).Draw(t, "max sellers")
	} else {
		g.maxMachines = rapid.IntRange(1, maxMachinesK).Draw(t, "max machines")
		g.maxSellers = rapid.IntRange(0, maxSellersK).Draw(t, "max sellers")
	}
	w := newWorld()
	w.replicas = g.replicas
	if w.replicas == 0 {
		w.replicas = rapid.IntRange(0, MaxReplicas).Draw(t, "K")
	}
	committed, committedK := Snapshot{}, w.replicas // the outcome of the last applied round, and its K
	for round := range rapid.IntRange(1, 8).Draw(t, "rounds") {
		var e eventK
		if round == 0 {
			e = g.bootstrap(t, w)
		} else {
			e = g.drawEvent(t, w)
		}
		w.stageK(e)
		s := w.snapshot()
		// An abandoned round's crashes and change of K carry over: count them with this round's.
		e.fail, e.lostCopies, e.replicas = nil, 0, 0
		for _, m := range committed.Machines {
			if _, ok := w.machines[m.Name]; !ok {
				e.fail = append(e.fail, m.Name)
				e.lostCopies += len(m.Primaries) + len(m.Backups)
			}
		}
		e.before = committed
		if w.replicas != committedK {
			e.replicas = w.replicas
		}
		res, err := Plan(s)
		if err != nil {
			t.Fatalf("%s: Plan: %v", e.kind(), err)
		}
		if bad := checkRound(s, res); len(bad) > 0 {
			t.Fatalf("%s: invariants violated:\n%s\nsnapshot:\n%s", e.kind(), strings.Join(bad, "\n"), formatSnapshot(s))
		}
		again, err := Plan(shuffled(t, s))
		if err != nil {
			t.Fatalf("%s: Plan of the shuffled snapshot: %v", e.kind(), err)
		}
		if !reflect.DeepEqual(res, again) {
			t.Fatalf("%s: Plan depends on input order:\n%s\nvs shuffled:\n%s", e.kind(), formatResult(res), formatResult(again))
		}
		next := w.clone()
		next.apply(s, res)
		steady, err := Plan(next.snapshot())
		if err != nil {
			t.Fatalf("%s: steady re-plan: %v", e.kind(), err)
		}
		if len(steady.Transfers)+len(steady.Drops)+len(steady.Promotions) > 0 || !reflect.DeepEqual(steady.Assignments, res.Assignments) {
			t.Fatalf("%s: re-planning the outcome with no event changes it:\n%s\nsnapshot:\n%s", e.kind(), formatResult(steady), formatSnapshot(s))
		}
		observe(e, s, res)
		if e.abandon {
			w.unstage()
			continue
		}
		w.apply(s, res)
		committed, committedK = w.snapshot(), w.replicas
	}
}

// TestReplicasProperties checks, on every round of random sequences with K 1–5 and zones 1–6:
// c copies on distinct machines with one PRIMARY, the zone rule, PRIMARY counts within one,
// the balance bound (local optimality and same-zone totals within one), every transfer from a
// machine with the data, Result independent of input order, and a steady re-plan moving nothing.
// Each subtest starts from one K; K changes within the sequences.
func TestReplicasProperties(t *testing.T) {
	for k := 1; k <= MaxReplicas; k++ {
		t.Run(fmt.Sprintf("K=%d", k), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				runSequenceWith(t, &zonedGenerator{replicas: k}, func(eventK, Snapshot, Result) {})
			})
		})
	}
}
