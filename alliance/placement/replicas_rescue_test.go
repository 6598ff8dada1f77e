package placement

import (
	"fmt"
	"strings"
	"testing"
)

// TestRescueMovesACopy is the example of replicas_rescue.go, found by the property tests: after
// the balance phase, role swaps alone leave b1 without a PRIMARY while a24 has two. The planner
// moves one copy within zone z0 and the primary counts end within one.
func TestRescueMovesACopy(t *testing.T) {
	var s Snapshot // K=2
	for _, n := range []string{"a12", "a13", "a14", "a15", "a16", "a17", "a18", "a19", "a2", "a20", "a21", "a22",
		"a23", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1"} {
		s.Machines = append(s.Machines, Machine{Name: n, Zone: "z0", Leaving: n == "a12"})
	}
	s.Machines = append(s.Machines,
		Machine{Name: "a24"},
		Machine{Name: "a25", Zone: "z0", Joining: true, Brings: []string{"s000", "s001", "s002"}})
	a26 := Machine{Name: "a26", Joining: true}
	for i := 3; i <= 22; i++ {
		a26.Brings = append(a26.Brings, fmt.Sprintf("s%03d", i))
	}
	s.Machines = append(s.Machines, a26)
	res, err := Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	if bad := checkRound(s, res); len(bad) > 0 {
		t.Fatalf("invariants violated:\n%s\n%s", strings.Join(bad, "\n"), formatResult(res))
	}
	for _, a := range res.Assignments {
		if a.Name == "b1" && len(a.Primaries) != 1 {
			t.Errorf("b1 is PRIMARY of %v, want one seller", a.Primaries)
		}
	}
}
