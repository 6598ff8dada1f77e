package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// buildAll builds airline, search, flights and alliancectl itself into a temporary directory,
// as `make build` would into bin/.
func buildAll(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts real processes")
	}
	bin := t.TempDir()
	cmd := exec.Command("go", "build", "-o", bin+string(os.PathSeparator),
		"flightalliance/cmd/...")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func freePort(t *testing.T) string {
	t.Helper()
	a, err := freeAddrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a[0]
}

// ctl runs the built alliancectl and returns its output; a non-zero exit fails the test.
func ctl(t *testing.T, bin, dir string, args ...string) string {
	t.Helper()
	out, code := ctlCode(t, bin, dir, args...)
	if code != 0 {
		t.Fatalf("alliancectl %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

func ctlCode(t *testing.T, bin, dir string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "alliancectl"), append(args, "--dir", dir)...)
	out, err := cmd.CombinedOutput()
	t.Logf("$ alliancectl %s\n%s", strings.Join(args, " "), out)
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("alliancectl %v: %v", args, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// recordedPids reads the pids state.json holds.
func recordedPids(t *testing.T, dir string) map[string]Proc {
	t.Helper()
	s, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Proc{}
	for _, p := range s.Procs {
		out[p.Name] = p
	}
	return out
}

// alive says whether pid is a live process, by /proc alone (a zombie is dead).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil && !fileExists("/proc/self")
	}
	i := bytes.LastIndexByte(b, ')')
	return i > 0 && i+2 < len(b) && b[i+2] != 'Z' && b[i+2] != 'X'
}

// killLeftovers SIGKILLs whatever a failed test left running, by the recorded pids only, and
// keeps the processes' logs of a failed test where its temporary directory will not take them.
func killLeftovers(t *testing.T, dir string) {
	if t.Failed() {
		keep := filepath.Join(os.TempDir(), "flightalliance-failed", strings.ReplaceAll(t.Name(), "/", "_"))
		if err := os.CopyFS(keep, os.DirFS(filepath.Join(dir, "logs"))); err == nil {
			t.Logf("the processes' logs are kept in %s", keep)
		}
	}
	s, err := loadState(dir)
	if err != nil {
		return
	}
	for _, p := range s.Procs {
		if inspect(p) != procGone {
			t.Logf("cleanup: SIGKILL %s (pid %d)", p.Name, p.Pid)
			_ = syscall.Kill(p.Pid, syscall.SIGKILL)
		}
	}
}

func assertAllGone(t *testing.T, procs map[string]Proc) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for name, p := range procs {
		for alive(p.Pid) && inspect(p) != procGone {
			if time.Now().After(deadline) {
				t.Fatalf("%s (pid %d) still runs after down", name, p.Pid)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// runClient is the run's state and an HTTP client for its servers, as alliancectl's own.
func runClient(t *testing.T, dir string, timeout time.Duration) (*State, *http.Client) {
	t.Helper()
	s, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.client(timeout)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// completeSearch runs the recorded showcase query through the search server and fails unless
// the answer is complete with trips.
func completeSearch(t *testing.T, dir string) {
	t.Helper()
	s, c := runClient(t, dir, 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := search(ctx, c, s.Search, s.Query)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Complete || len(a.Trips) == 0 {
		t.Fatalf("search %v: complete %v with %d trips, want complete with trips; alliances: %+v", s.Query, a.Complete, len(a.Trips), a.Alliances)
	}
}

// The default run is locked down (keys made in DIR/keys, TLS and tokens everywhere): it
// answers, its printed commands work, strangers get nothing, no token shows, and a machine
// added later runs as securely as the first ones.
func TestEndToEndUpStatusKillLoadRestartDown(t *testing.T) {
	bin := buildAll(t)
	dir := filepath.Join(t.TempDir(), "run")
	t.Cleanup(func() { killLeftovers(t, dir) })
	searchAddr := freePort(t)

	out := ctl(t, bin, dir, "up", "3", "--bin", bin, "--search", searchAddr, "--per-day", "10")
	keys := keyDir(filepath.Join(dir, "keys"))
	for _, want := range []string{"keys: made", "answers complete", "Locked down",
		"flights search --server https://" + searchAddr + " --ca " + keys.caCert(),
		"curl --cacert " + keys.caCert() + " 'https://" + searchAddr + "/Services/FlightsSearch/flight?",
		"etcdctl --endpoints https://", "--cert " + keys.cert(ctlName), "/status"} {
		if !strings.Contains(out, want) {
			t.Errorf("up's output lacks %q", want)
		}
	}
	completeSearch(t, dir)
	procs := recordedPids(t, dir)
	if len(procs) != 5 {
		t.Fatalf("state.json records %d processes, want search, the proxy daemon and 3 machines", len(procs))
	}
	s, c := runClient(t, dir, 5*time.Second)
	checkLockedDown(t, s)
	runHints(t, out)

	st := ctl(t, bin, dir, "status")
	if !strings.Contains(st, "agree)") || !strings.Contains(st, "3 of 3 answering machines see a leader") {
		t.Fatalf("status does not show an agreed delegate and quorum:\n%s", st)
	}
	var doc statusDoc
	if err := getJSON(context.Background(), c, procs["m1"].URL()+"/status", &doc); err != nil {
		t.Fatal(err)
	}
	victim := "m2"
	if doc.Delegate == "m2" {
		victim = "m3"
	}

	ctl(t, bin, dir, "kill", victim)
	// kill returns once the pid no longer runs its command line; the kernel may need a moment
	// more to finish tearing the process down.
	assertAllGone(t, map[string]Proc{victim: procs[victim]})
	// Right after the kill, before its lease expires, and after: every search complete.
	completeSearch(t, dir)
	load := ctl(t, bin, dir, "load", "--rate", "20", "--for", "4s")
	if !strings.Contains(load, "incomplete 0   errors 0") {
		t.Fatalf("searches after a kill were not all complete:\n%s", load)
	}
	if st := ctl(t, bin, dir, "status"); !strings.Contains(st, victim+" ") || !strings.Contains(st, "gone") {
		t.Fatalf("status does not show %s gone:\n%s", victim, st)
	}

	ctl(t, bin, dir, "restart", victim)
	restarted := recordedPids(t, dir)[victim]
	if restarted.Pid == procs[victim].Pid || !alive(restarted.Pid) {
		t.Fatalf("restart: pid %d (was %d), alive %v", restarted.Pid, procs[victim].Pid, alive(restarted.Pid))
	}
	procs[victim+"-restarted"] = restarted
	completeSearch(t, dir)

	// A machine added later gets a certificate of the same CA and its alliance's token file.
	add := ctl(t, bin, dir, "add", "m4", "--seller", "ZZ")
	if !strings.Contains(add, "wrote "+keys.cert("m4")) || !strings.Contains(add, "in the alliance's view") {
		t.Fatalf("add did not make m4's certificate and wait for it:\n%s", add)
	}
	m4 := recordedPids(t, dir)["m4"]
	procs["m4"] = m4
	line := strings.Join(m4.Args, " ")
	for _, want := range []string{"--token-file " + keys.token("star"), "--tls-cert " + keys.cert("m4"), "--join https://"} {
		if !strings.Contains(line, want) {
			t.Errorf("m4's command line lacks %q: %s", want, line)
		}
	}
	checkNoSecrets(t, dir, out, add)
	ctl(t, bin, dir, "leave", "m4")
	completeSearch(t, dir)

	down := ctl(t, bin, dir, "down")
	if !strings.Contains(down, "all processes") {
		t.Fatalf("down did not say it stopped everything:\n%s", down)
	}
	assertAllGone(t, procs)
	if fileExists(filepath.Join(dir, stateFile)) {
		t.Fatal("state.json still there after down")
	}
}

// `run` is what `make run` calls: it must stop every process it started on SIGINT.
func TestEndToEndRunStopsEverythingOnInterrupt(t *testing.T) {
	bin := buildAll(t)
	dir := filepath.Join(t.TempDir(), "run")
	t.Cleanup(func() { killLeftovers(t, dir) })
	searchAddr := freePort(t)

	cmd := exec.Command(filepath.Join(bin, "alliancectl"), "run", "--dir", dir, "--bin", bin,
		"--search", searchAddr, "--alliances", "2", "--machines", "2", "--per-day", "10")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var log bytes.Buffer
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		said := false
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
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
			t.Fatalf("run exited before it was ready:\n%s", log.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatal("run not ready within 3 minutes")
	}
	procs := recordedPids(t, dir)
	if len(procs) != 6 {
		t.Fatalf("run started %d processes, want search, the proxy daemon and 2×2 machines", len(procs))
	}
	completeSearch(t, dir)
	s, c := runClient(t, dir, 5*time.Second)
	var regs registrations
	if err := getJSON(context.Background(), c, s.Search+"/Services/FlightsSearchReg/", &regs); err != nil {
		t.Fatal(err)
	}
	if len(regs.Registrations) != 2 {
		t.Fatalf("registrations %+v, want both alliances", regs.Registrations)
	}
	checkNoSecrets(t, dir, log.String())

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("run exited with %v after SIGINT", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("run did not exit within a minute of SIGINT")
	}
	assertAllGone(t, procs)
	if !strings.Contains(log.String(), "all processes") {
		t.Fatalf("run did not report stopping everything:\n%s", log.String())
	}
}
