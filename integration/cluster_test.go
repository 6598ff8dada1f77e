package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/flight/flightfile"
	"flightalliance/tests/framework"
	"flightalliance/tests/framework/membership"
	"flightalliance/tests/robustness/model"
)

// TestCluster runs deploy/compose's alliance — three airline servers and a search server, each in
// a container of its own (its own host name, address and volume) on a private network, secure
// (TLS with the certificates `alliancectl keys --host` issues each host, a token) — from the
// image `make image` builds, and hits it the way hosts fail: docker kill, docker pause past the
// session lease, docker network disconnect (the others' packets vanish) past the dead-member
// grace, a stop and start of the whole alliance from its volumes, a rolling upgrade to another
// image tag, a fourth machine on a new host. All along, a search every 100 ms through the
// published search server is compared with the brute-force reference (never wrong), four
// clients book, cancel and read seats (the history must be linearizable, checked by porcupine),
// and the membership invariant is watched (no running machine the test did not fault is ever
// removed; one delegate). Each phase's figures are logged.
func TestCluster(t *testing.T) {
	requireDocker(t)
	imageA, imageB := clusterImages(t)
	c := newCluster(t, imageA)
	c.up()
	t.Logf("cluster %s up: search server at %s", c.project, c.base)

	// The busiest pairs by candidate connections, kept when the reference has trips for them (a
	// pair's connections may all be too short): an empty reference would check nothing.
	var queries []query
	want := map[string][]string{}
	for _, q := range busyQueries(c.data, 12) {
		if trips := referenceTrips(c.data, q, 30*time.Minute); len(trips) > 0 && len(queries) < 6 {
			queries = append(queries, q)
			want[q.String()] = trips
		}
	}
	if len(queries) < 3 {
		t.Fatalf("the cluster's data has trips for %d of its busiest pairs; want at least 3 queries to check", len(queries))
	}
	took := framework.Eventually(t, 3*time.Minute, "the cluster answers every query complete and right", func() error {
		for _, q := range queries {
			if a := classify(c.base, q, want[q.String()]); a.outcome != answerComplete {
				return fmt.Errorf("%v: %s", q, a.detail)
			}
		}
		return nil
	})
	t.Logf("searches complete %v after docker-compose up", took.Round(100*time.Millisecond))
	c.waitBack(time.Minute, "m1", "m2", "m3")

	flights := c.booked
	w := &bookingWorld{t: t, base: c.base, api: newBookingAPI(c.base)}
	c.waitBookable(w, flights[0], 2*time.Minute)
	searches := startSteadyLoad(c.base, queries, want, 100*time.Millisecond)
	bookings := startBookingLoad(w, flights, 11, 4)

	var phases []clusterPhase
	run := func(name string, fault func() (back time.Duration)) {
		p := clusterPhase{name: name, start: time.Now()}
		p.back = fault()
		p.end = time.Now()
		phases = append(phases, p)
		t.Logf("phase %q done in %v (back %v after the fault ended)", name, p.end.Sub(p.start).Round(100*time.Millisecond), p.back.Round(100*time.Millisecond))
	}
	run("steady", func() time.Duration { holdFault(5 * time.Second); return 0 })
	run("docker kill", func() time.Duration {
		victim := c.delegate()
		c.kill(victim)
		holdFault(5 * time.Second)
		c.start(victim)
		return c.waitBack(time.Minute, victim)
	})
	run("docker pause past the lease", func() time.Duration {
		victim := c.other(c.delegate())
		c.pause(victim)
		holdFault(6 * time.Second) // twice the session TTL
		c.unpause(victim)
		return c.waitBack(time.Minute, victim)
	})
	run("network disconnect of the delegate past the grace", func() time.Duration {
		victim := c.delegate()
		c.disconnect(victim)
		holdFault(15 * time.Second) // past the 10 s dead-member grace: the others remove it
		c.reconnect(victim)
		return c.waitBack(90*time.Second, victim)
	})
	run("whole alliance stopped and started from its volumes", func() time.Duration {
		names := []string{"m1", "m2", "m3"}
		for _, n := range names {
			c.watch.Set(n, membership.Faulted)
			c.machine(n).setUp(false)
		}
		c.compose(append([]string{"stop", "--timeout", "60"}, names...)...)
		c.compose(append([]string{"start"}, names...)...)
		for _, n := range names {
			c.started(c.machine(n), c.machine(n).container(), true)
		}
		return c.waitBack(2*time.Minute, names...)
	})
	var upgrade time.Duration
	run("rolling upgrade to "+imageB, func() time.Duration {
		start := time.Now()
		for _, n := range []string{"m1", "m2", "m3"} {
			c.upgrade(n, imageB)
		}
		upgrade = time.Since(start)
		return 0
	})
	run("a fourth machine on a new host", func() time.Duration {
		return c.addMachine("m4")
	})
	run("steady after", func() time.Duration { holdFault(5 * time.Second); return 0 })

	answers := searches.finish()
	bookings.stopClients()
	c.waitBack(2*time.Minute, "m1", "m2", "m3", "m4")
	c.waitBookable(w, flights[0], 2*time.Minute)
	ops := bookings.check(t, time.Minute, nil)

	reportClusterPhases(t, phases, answers)
	for _, p := range phases {
		if strings.HasPrefix(p.name, "rolling upgrade") {
			counts := phaseCounts(p, answers)
			if counts[answerIncomplete]+counts[answerError] > 0 {
				t.Errorf("the rolling upgrade (%v) left %d answers incomplete and %d failed; it must leave none",
					upgrade.Round(time.Second), counts[answerIncomplete], counts[answerError])
			}
		}
	}
	t.Logf("bookings: %d operations, %s", len(ops), model.Counts(ops))

	held := map[flight.Key][]string{} // the bookings the clients hold at the end (held or confirmed)
	for _, b := range bookings.bookers {
		for k, ids := range b.mine {
			held[k] = append(held[k], ids...)
		}
	}
	back := c.backupRestore(t, w.api, held, flights)
	t.Logf("backup, every volume destroyed, restore: machines back %v after their start", back.Round(100*time.Millisecond))
}

// clusterPhase is one step of the suite: a fault and its undoing, or a quiet spell.
type clusterPhase struct {
	name       string
	start, end time.Time
	back       time.Duration // from the end of the fault to the machine ready and in the view
}

func phaseCounts(p clusterPhase, answers []timedAnswer) map[chaosOutcome]int {
	counts := map[chaosOutcome]int{}
	for _, a := range answers {
		if !a.at.Before(p.start) && a.at.Before(p.end) {
			counts[a.outcome]++
		}
	}
	return counts
}

// reportClusterPhases logs each phase's searches (complete / total, incomplete, failed, wrong) and
// fails the test on any wrong answer, and on failed answers outside a whole-alliance stop.
func reportClusterPhases(t *testing.T, phases []clusterPhase, answers []timedAnswer) {
	t.Helper()
	t.Logf("%-52s %9s %10s %6s %5s %8s", "phase", "complete", "incomplete", "failed", "wrong", "back")
	for _, p := range phases {
		n := phaseCounts(p, answers)
		total := n[answerComplete] + n[answerIncomplete] + n[answerError] + n[answerWrong]
		t.Logf("%-52s %4d/%-4d %10d %6d %5d %8v", p.name, n[answerComplete], total, n[answerIncomplete], n[answerError], n[answerWrong], p.back.Round(100*time.Millisecond))
		if n[answerWrong] > 0 {
			t.Errorf("phase %q: %d answers complete and wrong", p.name, n[answerWrong])
		}
		if n[answerIncomplete] > 0 {
			t.Logf("  the first incomplete answer of %q: %s", p.name, firstIncomplete(p, answers))
		}
		if n[answerError] > 0 && !strings.HasPrefix(p.name, "whole alliance") {
			t.Errorf("phase %q: %d searches failed (the search server must answer, incomplete if it must)", p.name, n[answerError])
		}
	}
	for _, a := range answers {
		if a.outcome == answerWrong {
			t.Errorf("at %s: %s", clock(a.at), a.detail)
		}
	}
}

func firstIncomplete(p clusterPhase, answers []timedAnswer) string {
	for _, a := range answers {
		if a.outcome == answerIncomplete && !a.at.Before(p.start) && a.at.Before(p.end) {
			return clock(a.at) + " " + a.detail
		}
	}
	return ""
}

// holdFault holds a fault for d: the fault's length is what the test is about, not a guess at how
// long something takes.
func holdFault(d time.Duration) { time.Sleep(d) }

// newCluster prepares a cluster's files — seller data, and per-host keys issued by `alliancectl
// keys` from the tests' CA (so that the tests' client is trusted) — under a project of its own.
func newCluster(t *testing.T, image string) *cluster {
	t.Helper()
	root := repoRoot(t)
	c := &cluster{t: t, project: fmt.Sprintf("fatest%d%04d", os.Getpid()%100000, rand.IntN(10000)),
		file: filepath.Join(root, "deploy", "compose", "docker-compose.yml"), dir: t.TempDir(), image: image,
		publish: framework.FreeAddr(t), machines: map[string]*clusterMachine{}}
	c.base = "https://" + c.publish
	c.watch = membership.Start(t, getJSON)
	c.watch.SyncLogs = c.syncLogs
	t.Cleanup(c.down)

	all := []string{"LY", "UA", "LH"}
	data, err := flight.Generate(flight.GenerateConfig{Sellers: all, From: testDate, Days: 2, PerDay: 60, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	c.data = data
	c.booked = c.fewSeats()
	if err := flightfile.WriteDir(filepath.Join(c.dir, "data"), data); err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(c.dir, "keys")
	if err := os.MkdirAll(keys, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keys, "ca.crt"), framework.CA.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keys, "ca.key"), framework.CA.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	runTool(t, "alliancectl", "keys", "--out", keys, "--alliances", "star", "--machines", "4",
		"--host", "m1=m1", "--host", "m2=m2", "--host", "m3=m3", "--host", "m4=m4",
		"--host", "search=search,localhost,127.0.0.1")
	// The containers run as user 65532: its keys are its own (mode 0600), the data readable.
	if out, err := execCombinedOut("chown", "-R", "65532:65532", filepath.Join(keys, "hosts")); err != nil {
		t.Fatalf("giving the hosts' keys to the containers' user (this test runs as root, as CI does): %v\n%s", err, out)
	}
	if out, err := execCombinedOut("chmod", "-R", "a+rX", filepath.Join(c.dir, "data")); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}
	return c
}

// fewSeats gives three direct flights of LY and UA a handful of seats each (3, 4 and 5): the
// booking clients' contention. It returns them as the data has them now.
func (c *cluster) fewSeats() []flight.Flight {
	flights := append(directFlights(c.data, "LY", 2), directFlights(c.data, "UA", 1)...)
	for i := range flights {
		flights[i].Seats = 3 + i
		for j := range c.data[flights[i].Seller] {
			if c.data[flights[i].Seller][j].Key() == flights[i].Key() {
				c.data[flights[i].Seller][j].Seats = flights[i].Seats
			}
		}
	}
	return flights
}

// waitBookable waits until the search server reads a flight's seats from the alliance.
func (c *cluster) waitBookable(w *bookingWorld, f flight.Flight, within time.Duration) {
	c.t.Helper()
	framework.Eventually(c.t, within, "the search server reads seats from the alliance", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s, ans := w.api.seats(ctx, "star", refOf(f))
		if ans.err != nil || ans.status != 200 {
			return fmt.Errorf("seats: %v", ans)
		}
		if s.Capacity != f.Seats {
			return fmt.Errorf("seats of %s %s: capacity %d, the file says %d", f.Seller, f.Number, s.Capacity, f.Seats)
		}
		return nil
	})
}

// delegate is the machine the others name delegate now.
func (c *cluster) delegate() string {
	c.t.Helper()
	var d string
	framework.Eventually(c.t, 30*time.Second, "a delegate", func() error {
		for _, n := range []string{"m1", "m2", "m3"} {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			var st membership.Status
			err := getJSON(ctx, c.machine(n).url()+"/status", &st)
			cancel()
			if err == nil && st.Quorum() && st.Delegate != "" {
				d = st.Delegate
				return nil
			}
		}
		return fmt.Errorf("no machine names a delegate")
	})
	return d
}

// other is a machine of m1–m3 other than name.
func (c *cluster) other(name string) string {
	for _, n := range []string{"m1", "m2", "m3"} {
		if n != name {
			return n
		}
	}
	return ""
}
