package placement

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestScenarios runs the narrated scenarios in testdata/. Commands:
//
//	machine NAME [primaries=A,B] [backups=C] [zone=Z]   a committed machine (setup)
//	join NAME brings=A,B [zone=Z]                         NAME joins in the next round
//	fail NAME...                                          machines crash (a joiner too)
//	fail zone=Z                                           every machine of zone Z crashes
//	leave NAME...                                         machines leave gracefully in the next round
//	replicas K                                            the snapshots ask for K copies from now on
//	plan [abandon]                                        run a round; print and check the Result,
//	                                                      then apply it (unless abandon: the round
//	                                                      is cut short)
//	state                                                 print the committed holdings
//
// A machine that names a zone is printed with it: "m1 [z1]". A round outside the two-copy model
// (K ≠ 2, or machines sharing a zone) is checked with checkReplicas and checkBalance.
//
// Run with -rewrite to regenerate the expected output, then review the diff.
func TestScenarios(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		w := newWorld()
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return runCommand(t, w, d)
		})
	})
}

func runCommand(t *testing.T, w *world, d *datadriven.TestData) string {
	args := map[string]string{}
	var names []string
	for _, a := range d.CmdArgs {
		if len(a.Vals) == 0 {
			names = append(names, a.Key)
			continue
		}
		args[a.Key] = strings.Join(a.Vals, ",")
	}
	switch d.Cmd {
	case "machine":
		for _, name := range names {
			w.machines[name] = Machine{Name: name, Primaries: splitList(args["primaries"]), Backups: splitList(args["backups"])}
			w.setZone(name, args["zone"])
		}
		return ""
	case "join":
		for _, name := range names {
			w.joiners[name] = splitList(args["brings"])
			w.setZone(name, args["zone"])
		}
		return ""
	case "replicas":
		k, err := strconv.Atoi(strings.Join(names, ""))
		if err != nil {
			d.Fatalf(t, "replicas: %v", err)
		}
		w.replicas = k
		return ""
	case "fail":
		if z := args["zone"]; z != "" {
			for _, name := range slices.Sorted(maps.Keys(w.zones)) {
				if w.zones[name] == z {
					names = append(names, name)
				}
			}
		}
		for _, name := range names {
			if err := w.fail(name); err != nil {
				d.Fatalf(t, "%v", err)
			}
		}
		return ""
	case "leave":
		for _, name := range names {
			w.leaving[name] = true
		}
		return ""
	case "state":
		return w.String()
	case "plan":
		s := w.snapshot()
		res, err := Plan(s)
		if err != nil {
			return fmt.Sprintf("error: %v\n", err)
		}
		out := formatResultIn(res, w.zones)
		bad := checkResult(s, res)
		if !twoCopyModelOf(s) {
			bad = append(checkReplicas(s, res), checkBalance(s, res)...)
		}
		if len(bad) > 0 {
			t.Errorf("%s: invariants violated:\n%s", d.Pos, strings.Join(bad, "\n"))
			out += "VIOLATIONS:\n  " + strings.Join(bad, "\n  ") + "\n"
		}
		out += fmt.Sprintf("moved %d copies (lower bound %d)\n", len(res.Transfers), lowerBoundK(s))
		if len(names) == 0 || names[0] != "abandon" {
			w.apply(s, res)
		}
		return out
	}
	d.Fatalf(t, "unknown command %q", d.Cmd)
	return ""
}

// setZone records the zone a machine names; "" leaves it a zone of its own.
func (w *world) setZone(name, zone string) {
	if zone != "" {
		w.zones[name] = zone
	}
}
