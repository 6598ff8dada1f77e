package placement

import (
	"strings"
	"testing"
)

// The checkers must catch what they check: each case below breaks one rule.
func TestCheckersCatchViolations(t *testing.T) {
	zoned := func(name, zone string, primaries, backups string) Machine {
		return Machine{Name: name, Zone: zone, Primaries: splitList(primaries), Backups: splitList(backups)}
	}
	cases := []struct {
		name  string
		s     Snapshot
		res   Result
		check func(Snapshot, Result) []string
		want  string
	}{{
		name: "loads two apart in one zone",
		s:    Snapshot{Replicas: 1, Machines: []Machine{zoned("a", "z", "X,Y,Z", "-"), zoned("b", "z", "-", "-")}},
		res: Result{Assignments: []Assignment{
			{Name: "a", Primaries: []string{"X", "Y", "Z"}}, {Name: "b"}}},
		check: checkBalance,
		want:  "could give",
	}, {
		name: "primaries three apart",
		s:    Snapshot{Replicas: 1, Machines: []Machine{zoned("a", "z", "X,Y,Z", "-"), zoned("b", "z", "-", "-")}},
		res: Result{Assignments: []Assignment{
			{Name: "a", Primaries: []string{"X", "Y", "Z"}}, {Name: "b"}}},
		check: checkReplicas,
		want:  "PRIMARY counts range from 0 to 3",
	}, {
		name: "two copies in one zone while another zone is free",
		s: Snapshot{Machines: []Machine{zoned("a", "z1", "X", "-"), zoned("b", "z1", "-", "X"),
			zoned("c", "z2", "-", "-")}},
		res: Result{Assignments: []Assignment{
			{Name: "a", Primaries: []string{"X"}}, {Name: "b", Backups: []string{"X"}}, {Name: "c"}}},
		check: checkReplicas,
		want:  "breaks the zone rule",
	}, {
		name: "a transfer not from the snapshot's PRIMARY",
		s: Snapshot{Replicas: 3, Machines: []Machine{zoned("a", "", "X", "-"), zoned("b", "", "-", "X"),
			zoned("c", "", "-", "-")}},
		res: Result{
			Assignments: []Assignment{{Name: "a", Primaries: []string{"X"}}, {Name: "b", Backups: []string{"X"}},
				{Name: "c", Backups: []string{"X"}}},
			Transfers: []Transfer{{Seller: "X", Role: Backup, From: "b", To: "c"}}},
		check: checkReplicas,
		want:  "want it from a",
	}}
	for _, c := range cases {
		bad := c.check(c.s, c.res)
		if !strings.Contains(strings.Join(bad, "\n"), c.want) {
			t.Errorf("%s: got %q, want a violation containing %q", c.name, bad, c.want)
		}
	}
}
