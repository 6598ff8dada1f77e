package main

import (
	"path/filepath"
	"testing"
	"time"
)

// What `alliancectl up 5` must do (secure, as by default): the five machines keep
// one another past the dead-member grace; after `kill m2`, a wait past the grace and `restart
// m2`, m2 is back in every view and every etcd member list within 30 s while m1 m3 m4 m5 were
// never removed, and then all five agree (one delegate, a quorum each, all voters: five is
// within the default cap of five voters) at every poll for 15 s. It runs in three zones with three
// copies of every seller (up --zones 3 --replicas 3), and ends with `replicas 2`: every machine
// re-places live and searches stay complete.
func TestEndToEndUp5KillWaitRestartRejoins(t *testing.T) {
	bin := buildAll(t) // skipped by -short, as every end-to-end test here
	dir := filepath.Join(t.TempDir(), "run")
	t.Cleanup(func() { killLeftovers(t, dir) })

	ctl(t, bin, dir, "up", "5", "--zones", "3", "--replicas", "3", "--bin", bin, "--search", "127.0.0.1:0")
	up := time.Now()
	procs := recordedPids(t, dir)
	all := []string{"m1", "m2", "m3", "m4", "m5"}
	survivors := []string{"m1", "m3", "m4", "m5"}
	w := newRunWatch(t, dir)

	// Past the grace with nothing killed: nobody leaves.
	const grace = 10 * time.Second // the airline's --dead-member-grace default
	w.holdFor(grace+5*time.Second, all, func(docs map[string]*memberDoc) { w.stay(docs, all...) })
	docs := w.poll(all...)
	w.stay(docs, all...)
	if err := agreement(docs, all, true); err != nil {
		t.Fatalf("%v after up: %v", time.Since(up).Round(time.Second), err)
	}
	statusHas(t, ctl(t, bin, dir, "status"),
		"alliance star: replicas 3;", "(all 5 answering machines agree)", "quorum: 5 of 5 answering machines see a leader",
		"machines in the view: m1 m2 m3 m4 m5\n", " z1 ", " z3 ")

	ctl(t, bin, dir, "kill", "m2")
	killed := time.Now()
	w.forget("m2")
	// Past the grace, until m2's member is removed: the survivors stay, every poll.
	removed := time.Duration(0)
	for time.Since(killed) < grace+5*time.Second || removed == 0 {
		docs := w.poll(survivors...)
		w.stay(docs, survivors...)
		gone := len(docs) == len(survivors)
		for _, d := range docs {
			_, _, in := d.member("m2")
			gone = gone && !in && !d.inView("m2")
		}
		if gone && removed == 0 {
			removed = time.Since(killed)
			t.Logf("m2 out of every survivor's view and etcd member list %v after the kill", removed.Round(100*time.Millisecond))
		}
		if removed == 0 && time.Since(killed) > 3*grace {
			t.Fatalf("m2 still in the view or member list %v after the kill: %v", time.Since(killed).Round(time.Second), docs)
		}
		time.Sleep(time.Second)
	}
	if r := removedBesides(w.poll(survivors...), "m2"); len(r) > 0 {
		t.Fatalf("members other than m2 were removed: %v", r)
	}

	restarting := time.Now()
	ctl(t, bin, dir, "restart", "m2")
	w.patient["m2"] = true // it has 30 s to come back
	var back time.Duration
	for {
		docs := w.poll(all...)
		// m2's own view is empty while it joins again: the survivors' views are watched.
		w.stay(observedBy(docs, survivors), survivors...)
		err := agreement(docs, all, false)
		if err == nil {
			back = time.Since(restarting)
			t.Logf("m2 back in every view and etcd member list, all agreeing, %v after restart began", back.Round(100*time.Millisecond))
			delete(w.patient, "m2")
			break
		}
		if time.Since(restarting) > 30*time.Second {
			t.Fatalf("m2 not back within 30 s of restart: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	polls := w.holdFor(15*time.Second, all, func(docs map[string]*memberDoc) {
		w.stay(docs, all...)
		if err := agreement(docs, all, false); err != nil {
			t.Fatalf("poll %d, %v after m2 was back: %v", w.polls, (time.Since(restarting) - back).Round(time.Second), err)
		}
	})
	docs = w.poll(all...)
	w.stay(docs, all...)
	if err := agreement(docs, all, true); err != nil {
		t.Fatalf("after %d polls of agreement: %v", polls, err)
	}
	statusHas(t, ctl(t, bin, dir, "status"),
		"(all 5 answering machines agree)", "quorum: 5 of 5 answering machines see a leader",
		"machines in the view: m1 m2 m3 m4 m5\n", "etcd member removals (the last of each member):\n    m2 (id ")
	if r := removedBesides(docs, "m2"); len(r) > 0 {
		t.Fatalf("members other than m2 were removed: %v", r)
	}
	completeSearch(t, dir)

	// K lowered live: every machine re-places, and searches stay complete.
	statusHas(t, ctl(t, bin, dir, "replicas", "2"), "alliance star: replicas 3 → 2", "every running machine re-placed with replicas 2")
	statusHas(t, ctl(t, bin, dir, "status"), "alliance star: replicas 2;")
	completeSearch(t, dir)

	procs["m2-restarted"] = recordedPids(t, dir)["m2"]
	ctl(t, bin, dir, "down")
	assertAllGone(t, procs)
}

// observedBy is the part of docs that names answered.
func observedBy(docs map[string]*memberDoc, names []string) map[string]*memberDoc {
	out := map[string]*memberDoc{}
	for _, n := range names {
		if d, ok := docs[n]; ok {
			out[n] = d
		}
	}
	return out
}
