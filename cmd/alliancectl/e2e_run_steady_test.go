package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// startRun starts `alliancectl run` in base as `make run` does (`bin/alliancectl run --bin bin`:
// its default run directory var/run, keys, TLS and tokens), with a free search port instead of
// :8080 and extra args, and waits until it runs in the foreground. It returns the command and
// what it printed so far (and keeps collecting).
func startRun(t *testing.T, bin, base string, args ...string) (*exec.Cmd, func() string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "alliancectl"),
		append([]string{"run", "--bin", bin, "--search", "127.0.0.1:0"}, args...)...)
	cmd.Dir = base
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var mu sync.Mutex
	var log bytes.Buffer
	printed := func() string { mu.Lock(); defer mu.Unlock(); return log.String() }
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		said := false
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if !said && strings.Contains(sc.Text(), "Running in the foreground") {
				said = true
				ready <- true
			}
		}
		if !said {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			_ = cmd.Wait()
			t.Fatalf("run exited before it was ready:\n%s", printed())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("run not ready within 3 minutes:\n%s", printed())
	}
	return cmd, printed
}

// stopRun interrupts a run as Ctrl-C does and checks that it stopped every process.
func stopRun(t *testing.T, cmd *exec.Cmd, printed func() string, procs map[string]Proc) {
	t.Helper()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("run exited with %v after SIGINT:\n%s", err, printed())
		}
	case <-time.After(time.Minute):
		t.Fatalf("run did not exit within a minute of SIGINT:\n%s", printed())
	}
	assertAllGone(t, procs)
}

// What `make run` starts (secure: keys, TLS, tokens) keeps its healthy
// machines. Under TLS the etcd peer probe once failed on every healthy member and the leader
// evicted them about 12 s after start; here a window well past the dead-member grace (10 s) is
// watched every second, and a machine that leaves any view or etcd member list (or is removed
// and added again) fails the test at once. At the end m1 m2 m3 are in every view, all etcd
// voters, 3 of 3 see a quorum and all name the same delegate.
func TestEndToEndRunKeepsItsMachines(t *testing.T) {
	bin := buildAll(t) // skipped by -short, as every end-to-end test here
	base := t.TempDir()
	dir := filepath.Join(base, "var", "run") // run's default --dir, in base
	t.Cleanup(func() { killLeftovers(t, dir) })

	cmd, printed := startRun(t, bin, base)
	started := time.Now()
	if !strings.Contains(printed(), "Locked down") {
		t.Fatalf("run did not start locked down:\n%s", printed())
	}
	procs := recordedPids(t, dir)
	machines := []string{"m1", "m2", "m3"}
	for _, m := range machines {
		p, ok := procs[m]
		if !ok {
			t.Fatalf("run recorded no %s: %v", m, procs)
		}
		if line := strings.Join(p.Args, " "); !strings.Contains(line, "--tls-cert ") || !strings.Contains(line, "--token-file ") {
			t.Fatalf("%s does not run secure: %s", m, line)
		}
	}

	const window = 60 * time.Second
	w := newRunWatch(t, dir)
	unsettled := 0
	polls := w.holdFor(window, machines, func(docs map[string]*memberDoc) {
		w.stay(docs, machines...)
		if err := agreement(docs, machines, true); err != nil {
			unsettled++
			t.Logf("poll %d (%v after ready): not settled: %v", w.polls, time.Since(started).Round(time.Second), err)
		}
	})
	t.Logf("%d polls over %v: every machine stayed in every view and etcd member list (%d polls not fully settled)",
		polls, window, unsettled)

	docs := w.poll(machines...)
	w.stay(docs, machines...)
	if err := agreement(docs, machines, true); err != nil {
		t.Fatalf("%v after the run was ready: %v", time.Since(started).Round(time.Second), err)
	}
	if r := removedBesides(docs); len(r) > 0 {
		t.Fatalf("etcd members were removed: %v", r)
	}
	statusHas(t, ctl(t, bin, dir, "status"),
		"(all 3 answering machines agree)", "quorum: 3 of 3 answering machines see a leader",
		"machines in the view: m1 m2 m3\n", "etcd member removals: none recorded")
	completeSearch(t, dir)

	stopRun(t, cmd, printed, procs)
}
