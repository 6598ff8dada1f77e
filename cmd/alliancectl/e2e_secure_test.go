package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// checkNoSecrets fails if a token of the run's keys is on the command line of any process the
// run recorded, in any log of the run, or in any of texts (what alliancectl printed).
func checkNoSecrets(t *testing.T, dir string, texts ...string) {
	t.Helper()
	s, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := filepath.Glob(filepath.Join(s.Keys, "*.token"))
	if err != nil || len(tokens) == 0 {
		t.Fatalf("no tokens in %s (%v)", s.Keys, err)
	}
	var secrets []string
	for _, f := range tokens {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, strings.TrimSpace(string(b)))
	}
	places := map[string]string{}
	for _, p := range s.Procs {
		if inspect(p) == procGone {
			t.Errorf("%s (pid %d) is not running: its command line cannot be checked", p.Name, p.Pid)
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.Pid))
		if err != nil {
			t.Fatal(err)
		}
		places[fmt.Sprintf("/proc/%d/cmdline (%s)", p.Pid, p.Name)] = string(cmdline)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*"))
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		places[l] = string(b)
	}
	for i, text := range texts {
		places[fmt.Sprintf("alliancectl output %d", i+1)] = text
	}
	for where, text := range places {
		for _, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("a token is in %s", where)
			}
		}
	}
	t.Logf("no token among %d command lines, logs and outputs", len(places))
}

// checkLockedDown tries the run as a stranger: plain HTTP gets nothing from the search server
// or a machine, and a machine refuses a caller without a certificate of the CA.
func checkLockedDown(t *testing.T, s *State) {
	t.Helper()
	plain := &http.Client{Timeout: 5 * time.Second}
	m1, err := s.proc("m1")
	if err != nil {
		t.Fatal(err)
	}
	search, _ := s.proc("search")
	for _, url := range []string{"http://" + search.Ports.Listen + "/Services/FlightsSearchReg/", "http://" + m1.Ports.Listen + "/status"} {
		if resp, err := plain.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode < 400 {
				t.Errorf("plain HTTP %s: %s", url, resp.Status)
			}
		}
	}
	full, err := s.keys().clientFiles().Client()
	if err != nil {
		t.Fatal(err)
	}
	noCert := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: full.RootCAs}}}
	if resp, err := noCert.Get(m1.URL() + "/status"); err == nil {
		resp.Body.Close()
		t.Errorf("a caller without a certificate got m1's /status: %s", resp.Status)
	}
	if resp, err := noCert.Get(s.Search + "/Services/FlightsSearchReg/"); err != nil {
		t.Errorf("a REST client without a certificate: %v", err)
	} else {
		resp.Body.Close()
	}
}

// runHints runs the commands up printed (curl, flights, etcdctl) and fails unless each answers:
// the hints must work as printed. An etcdctl line is run when etcdctl is installed; otherwise
// its endpoint and TLS flags are tried with curl on etcd's /health.
func runHints(t *testing.T, out string) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Log("no curl: the printed curl commands are not tried")
		return
	}
	ran := 0
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		var cmd, want string
		switch {
		case strings.Contains(line, " search --server "):
			cmd, want = line, "" // flights search: exit 0 is enough
		case strings.Contains(line, "curl ") && strings.Contains(line, "/Services/FlightsSearch/flight"):
			cmd, want = "curl -fsS "+line[strings.Index(line, "curl ")+5:], `"trips"`
		case strings.Contains(line, "curl ") && strings.HasSuffix(line, "/status"):
			cmd, want = "curl -fsS "+line[strings.Index(line, "curl ")+5:], `"delegate"`
		case strings.HasPrefix(line, "etcdctl "):
			if _, err := exec.LookPath("etcdctl"); err == nil {
				cmd, want = line, "/alliances/"
				break
			}
			f := strings.Fields(line)
			var endpoints string
			var tlsFlags []string
			for i := 0; i+1 < len(f); i++ {
				switch f[i] {
				case "--endpoints":
					endpoints = f[i+1]
				case "--cacert", "--cert", "--key":
					tlsFlags = append(tlsFlags, f[i], f[i+1])
				}
			}
			first, _, _ := strings.Cut(endpoints, ",")
			cmd, want = "curl -fsS "+strings.Join(tlsFlags, " ")+" "+first+"/health", `"health":"true"`
		default:
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		b, err := exec.CommandContext(ctx, "sh", "-c", cmd).CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("the printed command does not work: %s\n%v: %s", cmd, err, b)
		}
		ran++
	}
	if ran < 4 {
		t.Errorf("only %d commands to try in up's output:\n%s", ran, out)
	}
	t.Logf("%d printed commands work", ran)
}

// An open run, as before keys: plain HTTP everywhere, no keys made, no security flags.
func TestEndToEndInsecure(t *testing.T) {
	bin := buildAll(t)
	dir := filepath.Join(t.TempDir(), "run")
	t.Cleanup(func() { killLeftovers(t, dir) })
	searchAddr := freePort(t)

	out := ctl(t, bin, dir, "up", "1", "--insecure", "--bin", bin, "--search", searchAddr, "--per-day", "5")
	for _, want := range []string{"Running OPEN", "flights search --server http://" + searchAddr + " --from",
		"curl 'http://" + searchAddr + "/Services/FlightsSearch/flight?", "etcdctl --endpoints http://"} {
		if !strings.Contains(out, want) {
			t.Errorf("up --insecure's output lacks %q", want)
		}
	}
	if fileExists(filepath.Join(dir, "keys")) {
		t.Error("up --insecure made keys")
	}
	s, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.Procs {
		line := strings.Join(p.Args, " ")
		if strings.Contains(line, "--tls") || strings.Contains(line, "--token-file") || strings.Contains(line, "--trust") ||
			strings.Contains(line, "https://") {
			t.Errorf("%s runs with security flags: %s", p.Name, line)
		}
	}
	// Plain clients, no certificate: what an open run means.
	a, err := search(context.Background(), &http.Client{Timeout: 10 * time.Second}, "http://"+searchAddr, s.Query)
	if err != nil || !a.Complete {
		t.Fatalf("a plain search: complete %v, %v", a.Complete, err)
	}
	runHints(t, out)
	if st := ctl(t, bin, dir, "status"); !strings.Contains(st, "1 of 1 answering machines see a leader") {
		t.Fatalf("status of an open run:\n%s", st)
	}
	if out, code := ctlCode(t, bin, dir, "up", "2", "--insecure", "--keys", "k", "--bin", bin); code != exitUsage ||
		!strings.Contains(out, "--keys") {
		t.Errorf("up --insecure --keys: exit %d, want %d", code, exitUsage)
	}
	procs := recordedPids(t, dir)
	ctl(t, bin, dir, "down")
	assertAllGone(t, procs)
}
