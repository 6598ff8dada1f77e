package placement

import (
	"fmt"
	"testing"
)

// zonedAlliance is a settled alliance of machines×sellers with k replicas over the given number
// of zones: machine i is in zone i mod zones and brought sellers j ≡ i (mod machines) at a
// bootstrap; the snapshot is the bootstrap's result, committed.
func zonedAlliance(tb testing.TB, machines, sellers, zones, k int) Snapshot {
	boot := Snapshot{Replicas: k}
	for i := range machines {
		m := Machine{Name: fmt.Sprintf("m%03d", i), Zone: fmt.Sprintf("z%d", i%zones), Joining: true}
		for j := i; j < sellers; j += machines {
			m.Brings = append(m.Brings, fmt.Sprintf("s%04d", j))
		}
		boot.Machines = append(boot.Machines, m)
	}
	res, err := Plan(boot)
	if err != nil {
		tb.Fatal(err)
	}
	s := Snapshot{Replicas: k}
	for i, a := range res.Assignments {
		s.Machines = append(s.Machines, Machine{Name: a.Name, Zone: boot.Machines[i].Zone, Primaries: a.Primaries, Backups: a.Backups})
	}
	return s
}

func benchmarkReplicas(b *testing.B, event func(Snapshot) Snapshot) {
	benchmarkPlan(b, zonedAlliance(b, 50, 500, 5, 3), event)
}

// BenchmarkPlanReplicasFail: one machine of 50 (500 sellers, K=3, five zones) fails.
func BenchmarkPlanReplicasFail(b *testing.B) {
	benchmarkReplicas(b, func(s Snapshot) Snapshot {
		s.Machines = s.Machines[1:]
		return s
	})
}

// BenchmarkPlanReplicasJoin: a machine with no files joins 50 machines (500 sellers, K=3).
func BenchmarkPlanReplicasJoin(b *testing.B) {
	benchmarkReplicas(b, func(s Snapshot) Snapshot {
		s.Machines = append(s.Machines, Machine{Name: "joiner", Zone: "z0", Joining: true})
		return s
	})
}

// BenchmarkPlanReplicasZoneLoss: a whole zone of 10 machines of 50 (500 sellers, K=3) is lost.
func BenchmarkPlanReplicasZoneLoss(b *testing.B) {
	benchmarkReplicas(b, func(s Snapshot) Snapshot {
		var kept []Machine
		for _, m := range s.Machines {
			if m.Zone != "z0" {
				kept = append(kept, m)
			}
		}
		s.Machines = kept
		return s
	})
}

// BenchmarkPlanReplicasSteady: a round in which nothing changed (50×500, K=3).
func BenchmarkPlanReplicasSteady(b *testing.B) {
	benchmarkReplicas(b, func(s Snapshot) Snapshot { return s })
}

// BenchmarkPlanReplicasBootstrap: 50 machines in five zones start together with 500 sellers, K=3.
func BenchmarkPlanReplicasBootstrap(b *testing.B) {
	boot := Snapshot{Replicas: 3}
	for i := range 50 {
		m := Machine{Name: fmt.Sprintf("m%03d", i), Zone: fmt.Sprintf("z%d", i%5), Joining: true}
		for j := i; j < 500; j += 50 {
			m.Brings = append(m.Brings, fmt.Sprintf("s%04d", j))
		}
		boot.Machines = append(boot.Machines, m)
	}
	benchmarkReplicas(b, func(Snapshot) Snapshot { return boot })
}
