package integration

import (
	"fmt"
	"time"

	"testing"
)

// BenchmarkTwentyMachinesInZones starts 20 machines × 200 sellers twice — the two-copy model (two
// copies, every machine its own zone) as the reference, then four zones with three copies of
// every seller — and for each reports the largest resident set once placed, and the time from a
// kill -9 of a non-delegate machine to a settled placement without it (every seller in as many
// zones as its copies and the live zones allow). Run with -benchtime=1x (make bench).
func BenchmarkTwentyMachinesInZones(b *testing.B) {
	for _, c := range []struct {
		name     string
		replicas int
		zones    int
	}{{"replicas=2/zones=20", 2, 0}, {"replicas=3/zones=4", 3, 4}} {
		b.Run(c.name, func(b *testing.B) {
			sellers := twentyByTwoHundred()
			opts := allianceOpts{extra: []string{"--replicas", fmt.Sprint(c.replicas)}, perDay: 4, days: 1}
			if c.zones > 0 {
				opts.zones = map[string]string{}
				for i := range 20 {
					opts.zones[fmt.Sprintf("m%02d", i+1)] = fmt.Sprintf("z%d", i%c.zones+1)
				}
			}
			a := startAlliance(b, "star", sellers, opts)
			a.waitSettled(4 * time.Minute)
			b.ResetTimer()
			var worst time.Duration
			for i := range b.N {
				victim := fmt.Sprintf("m%02d", 7+i%10)
				a.kill(victim)
				worst = max(worst, a.waitSettled(2*time.Minute))
				a.restart(victim)
				a.waitSettled(4 * time.Minute)
			}
			b.StopTimer()
			b.ReportMetric(worst.Seconds(), "kill-settle-s")
			b.ReportMetric(a.maxRSSMiB(), "max-rss-MiB")
		})
	}
}
