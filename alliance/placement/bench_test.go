package placement

import (
	"fmt"
	"testing"
)

// bigAlliance is a balanced alliance of machines×sellers: seller j is PRIMARY on machine
// j mod machines and BACKUP on the next machine.
func bigAlliance(machines, sellers int) Snapshot {
	s := Snapshot{Machines: make([]Machine, machines)}
	for i := range s.Machines {
		s.Machines[i].Name = fmt.Sprintf("m%04d", i)
	}
	for j := range sellers {
		name := fmt.Sprintf("s%05d", j)
		p := j % machines
		s.Machines[p].Primaries = append(s.Machines[p].Primaries, name)
		b := &s.Machines[(p+1)%machines]
		b.Backups = append(b.Backups, name)
	}
	return s
}

func benchmarkEvent(b *testing.B, event func(Snapshot) Snapshot) {
	benchmarkPlan(b, bigAlliance(1000, 10000), event)
}

// benchmarkPlan times Plan on event applied to the settled alliance base, and reports the
// transfers the event costs.
func benchmarkPlan(b *testing.B, base Snapshot, event func(Snapshot) Snapshot) {
	s := event(base)
	res, err := Plan(s)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Plan(s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(res.Transfers)), "transfers")
}

// BenchmarkPlanFail: one machine of 1,000 (10,000 sellers) fails.
func BenchmarkPlanFail(b *testing.B) {
	benchmarkEvent(b, func(s Snapshot) Snapshot {
		s.Machines = s.Machines[1:]
		return s
	})
}

// BenchmarkPlanJoin: a machine joins 1,000 machines (10,000 sellers), bringing 10 sellers.
func BenchmarkPlanJoin(b *testing.B) {
	benchmarkEvent(b, func(s Snapshot) Snapshot {
		j := Machine{Name: "joiner", Joining: true}
		for k := range 10 {
			j.Brings = append(j.Brings, fmt.Sprintf("new%02d", k))
		}
		s.Machines = append(s.Machines, j)
		return s
	})
}

// BenchmarkPlanLeave: one machine of 1,000 (10,000 sellers) leaves gracefully.
func BenchmarkPlanLeave(b *testing.B) {
	benchmarkEvent(b, func(s Snapshot) Snapshot {
		s.Machines[500].Leaving = true
		return s
	})
}

// BenchmarkPlanSteady: a round in which nothing changed.
func BenchmarkPlanSteady(b *testing.B) {
	benchmarkEvent(b, func(s Snapshot) Snapshot { return s })
}
