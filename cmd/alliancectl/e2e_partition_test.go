package main

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// viewsOf returns, for each named machine that answers /status, the machines in its view.
func viewsOf(t *testing.T, s *State, names []string) map[string][]string {
	t.Helper()
	c, err := s.client(2 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, n := range names {
		p, err := s.proc(n)
		if err != nil {
			t.Fatal(err)
		}
		var doc statusDoc
		if err := getJSON(context.Background(), c, p.URL()+"/status", &doc); err != nil {
			continue
		}
		for _, e := range doc.View {
			out[n] = append(out[n], e.Name)
		}
	}
	return out
}

// maxLatency reads the max latency from load's report.
func maxLatency(t *testing.T, report string) time.Duration {
	t.Helper()
	m := regexp.MustCompile(`max (\S+)`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no max latency in load's report:\n%s", report)
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		t.Fatalf("load's max latency %q: %v", m[1], err)
	}
	return d
}

func TestEndToEndPartitionHeal(t *testing.T) {
	bin := buildAll(t)
	dir := filepath.Join(t.TempDir(), "run")
	t.Cleanup(func() { killLeftovers(t, dir) })

	ctl(t, bin, dir, "up", "3", "--bin", bin, "--search", freePort(t), "--per-day", "10")
	procs := recordedPids(t, dir)
	if _, ok := procs[proxydName]; !ok {
		t.Fatalf("up did not record a proxy daemon: %v", procs)
	}
	s, c := runClient(t, dir, 5*time.Second)
	var doc statusDoc
	if err := getJSON(context.Background(), c, procs["m1"].URL()+"/status", &doc); err != nil {
		t.Fatal(err)
	}
	victim := "m2"
	if doc.Delegate == "m2" {
		victim = "m3"
	}
	var others []string
	for _, n := range []string{"m1", "m2", "m3"} {
		if n != victim {
			others = append(others, n)
		}
	}

	out := ctl(t, bin, dir, "partition", victim)
	cut := time.Now()
	if !strings.Contains(out, victim+" is partitioned") {
		t.Fatalf("partition did not say what it did:\n%s", out)
	}
	// Before its lease expires the delegate still asks it, for the sellers the delegate does not
	// hold, in about half the searches (the third machine holds them too, and which of the two a
	// search asks goes by a hash of its query: gather.fewestCalls); nothing answers, not even a
	// refusal, so such a search waits out the hedge delay (the airline's --hedge-after, 150ms)
	// before the other holder is asked too: slower, but complete. A refused connection would fall
	// over to the other holder at once. Twenty searches: all twenty missing it is a chance in a
	// million.
	early := ctl(t, bin, dir, "load", "--rate", "20", "--for", "1s")
	if !strings.Contains(early, "incomplete 0   errors 0") {
		t.Fatalf("searches right after the partition were not all complete:\n%s", early)
	}
	if slowest := maxLatency(t, early); slowest < 140*time.Millisecond {
		t.Fatalf("the slowest search right after the partition took %v: calls to %s did not hang (a refusal, not a blackhole?)", slowest, victim)
	}

	for {
		views := viewsOf(t, s, others)
		gone := len(views) == len(others)
		for _, v := range views {
			gone = gone && !slices.Contains(v, victim)
		}
		if gone {
			t.Logf("%s left the others' views %v after the partition", victim, time.Since(cut).Round(time.Millisecond))
			break
		}
		if time.Since(cut) > 10*time.Second {
			t.Fatalf("10s after the partition the others' views are still %v", views)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if st := ctl(t, bin, dir, "status"); !strings.Contains(st, "partitioned: "+victim) ||
		!strings.Contains(st, "machines in the view: "+strings.Join(others, " ")+"\n") {
		t.Fatalf("status does not show %s partitioned and out of the view:\n%s", victim, st)
	}
	load := ctl(t, bin, dir, "load", "--rate", "10", "--for", "3s")
	if !strings.Contains(load, "incomplete 0   errors 0") {
		t.Fatalf("searches while %s is partitioned were not all complete:\n%s", victim, load)
	}

	if out := ctl(t, bin, dir, "heal"); !strings.Contains(out, "healed "+victim) {
		t.Fatalf("heal did not say what it healed:\n%s", out)
	}
	healed := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	vp, _ := s.proc(victim)
	for {
		// Its own view went stale during the partition, so settled alone could pass on it; it
		// must also have finished joining again, with a leader.
		err := settled(ctx, c, s, s.Alliances[0].Name)
		if err == nil {
			var doc statusDoc
			err = getJSON(ctx, c, vp.URL()+"/status", &doc)
			switch {
			case err != nil:
			case doc.Joining:
				err = errors.New(victim + " is still joining")
			case doc.Member == nil || !doc.Member.HasQuorum:
				err = errors.New(victim + " sees no etcd leader")
			}
		}
		if err == nil {
			t.Logf("%s back and the placement settled %v after heal", victim, time.Since(healed).Round(time.Millisecond))
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("not settled within 60s of heal: %v", err)
		}
		time.Sleep(250 * time.Millisecond)
	}
	st := ctl(t, bin, dir, "status")
	for _, want := range []string{"partitioned: -", "machines in the view: m1 m2 m3\n", "3 of 3 answering machines see a leader"} {
		if !strings.Contains(st, want) {
			t.Fatalf("status after heal lacks %q:\n%s", want, st)
		}
	}
	completeSearch(t, dir)

	ctl(t, bin, dir, "down")
	assertAllGone(t, procs)
	if fileExists(filepath.Join(dir, stateFile)) {
		t.Fatal("state.json still there after down")
	}
}
