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

// The property tests drive the simulator through random event sequences — joins (of new
// machines with new sellers, of machines bringing new versions of known sellers), crashes,
// graceful leaves, abandoned rounds, several of them in one round — on up to 30 machines and
// 300 sellers, and check every round's Result. The default rapid.checks (100 sequences of up to
// 12 rounds) suits CI; the big run is
//
//	go test ./alliance/placement/ -run 'Properties|LowerBound' -rapid.checks=20000

const (
	maxMachines = 30
	maxSellers  = 300
)

// event is one round's worth of membership changes, drawn from the current world.
type event struct {
	fail, leave []string
	join        map[string][]string
	abandon     bool
}

func (e event) kind() string {
	var parts []string
	if len(e.fail) > 0 {
		parts = append(parts, fmt.Sprintf("fail×%d", len(e.fail)))
	}
	if len(e.leave) > 0 {
		parts = append(parts, fmt.Sprintf("leave×%d", len(e.leave)))
	}
	if len(e.join) > 0 {
		parts = append(parts, fmt.Sprintf("join×%d", len(e.join)))
	}
	return strings.Join(parts, "+")
}

// generator hands out fresh machine and seller names. Machine names get a random first letter
// so that name order is not creation order.
type generator struct{ machines, sellers int }

func (g *generator) drawEvent(t *rapid.T, w *world) event {
	e := event{join: map[string][]string{}}
	members := slices.Sorted(maps.Keys(w.machines))
	if len(members) > 0 {
		for _, m := range members {
			if len(e.fail) < 2 && rapid.IntRange(0, 9).Draw(t, "fail?") == 0 {
				e.fail = append(e.fail, m)
			} else if len(e.leave) < 1 && rapid.IntRange(0, 19).Draw(t, "leave?") == 0 {
				e.leave = append(e.leave, m)
			}
		}
	}
	live := len(members) - len(e.fail) - len(e.leave)
	joins := rapid.IntRange(0, 2).Draw(t, "joins")
	if len(e.fail)+len(e.leave) == 0 && joins == 0 {
		joins = 1
	}
	known := slices.Sorted(maps.Keys(w.known))
	for range joins {
		if live+len(e.join) >= maxMachines {
			break
		}
		g.machines++
		name := fmt.Sprintf("%c%d", 'a'+rapid.IntRange(0, 25).Draw(t, "letter"), g.machines)
		var brings []string
		for range rapid.IntRange(0, 40).Draw(t, "new sellers") {
			if g.sellers >= maxSellers {
				break
			}
			brings = append(brings, fmt.Sprintf("s%03d", g.sellers))
			g.sellers++
		}
		if len(known) > 0 && rapid.IntRange(0, 3).Draw(t, "new versions?") == 0 {
			for range rapid.IntRange(1, 3).Draw(t, "new versions") {
				s := rapid.SampledFrom(known).Draw(t, "version of")
				if !slices.Contains(brings, s) {
					brings = append(brings, s)
				}
			}
		}
		e.join[name] = brings
	}
	e.abandon = rapid.IntRange(0, 9).Draw(t, "abandon?") == 0
	return e
}

func (w *world) stage(e event) {
	for _, m := range e.fail {
		_ = w.fail(m)
	}
	for _, m := range e.leave {
		w.leaving[m] = true
	}
	maps.Copy(w.joiners, e.join)
}

// unstage forgets an abandoned round's joiners and leavers (their processes would retry; here
// they simply give up), keeping the crashes.
func (w *world) unstage() {
	for name := range w.joiners {
		delete(w.zones, name)
	}
	w.joiners = map[string][]string{}
	w.leaving = map[string]bool{}
}

// shuffled returns s with machines and every list in an order drawn by t.
func shuffled(t *rapid.T, s Snapshot) Snapshot {
	out := Snapshot{Replicas: s.Replicas, Sellers: rapid.Permutation(s.Sellers).Draw(t, "sellers order")}
	for _, m := range rapid.Permutation(s.Machines).Draw(t, "machines order") {
		m.Primaries = rapid.Permutation(m.Primaries).Draw(t, "primaries order")
		m.Backups = rapid.Permutation(m.Backups).Draw(t, "backups order")
		m.Brings = rapid.Permutation(m.Brings).Draw(t, "brings order")
		out.Machines = append(out.Machines, m)
	}
	return out
}

// runSequence plays a random sequence of rounds, checks each, and reports every planned round
// to observe.
func runSequence(t *rapid.T, observe func(e event, s Snapshot, res Result)) {
	w, g := newWorld(), &generator{}
	for range rapid.IntRange(1, 12).Draw(t, "rounds") {
		e := g.drawEvent(t, w)
		w.stage(e)
		s := w.snapshot()
		res, err := Plan(s)
		if err != nil {
			t.Fatalf("%s: Plan: %v", e.kind(), err)
		}
		if bad := checkResult(s, res); len(bad) > 0 {
			t.Fatalf("%s: invariants violated:\n%s\nsnapshot: %+v", e.kind(), strings.Join(bad, "\n"), s)
		}
		again, err := Plan(shuffled(t, s))
		if err != nil {
			t.Fatalf("%s: Plan of the shuffled snapshot: %v", e.kind(), err)
		}
		if !reflect.DeepEqual(res, again) {
			t.Fatalf("%s: Plan depends on input order:\n%s\nvs shuffled:\n%s", e.kind(), formatResult(res), formatResult(again))
		}
		observe(e, s, res)
		if e.abandon {
			w.unstage()
			continue
		}
		w.apply(s, res)
	}
}

func TestPlanProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		runSequence(t, func(event, Snapshot, Result) {})
	})
}

func TestPlanIsDeterministicAcrossCalls(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		runSequence(t, func(e event, s Snapshot, res Result) {
			for range 3 {
				again, err := Plan(s)
				if err != nil || !reflect.DeepEqual(res, again) {
					t.Fatalf("%s: a second Plan of the same snapshot differs (err %v)", e.kind(), err)
				}
			}
		})
	})
}
