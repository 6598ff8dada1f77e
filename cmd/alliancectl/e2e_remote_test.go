package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// ctlFrom runs the built alliancectl in cwd without --dir: as an operator would on a host that
// started nothing (no state.json anywhere near).
func ctlFrom(t *testing.T, bin, cwd string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "alliancectl"), args...)
	cmd.Dir = cwd
	out, err := cmd.CombinedOutput()
	t.Logf("(in %s) $ alliancectl %s\n%s", cwd, strings.Join(args, " "), out)
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("alliancectl %v: %v", args, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// lineWith is the first line of text that starts (after spaces) with prefix.
func lineWith(text, prefix string) string {
	for l := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return l
		}
	}
	return ""
}

// checkHolders fails unless line names every seller with a primary and backups holders
// backups each: "LY m1/m3" (or "LY m1/m2+m3" for two).
func checkHolders(t *testing.T, what, line string, sellers []string, backups int) {
	t.Helper()
	b := `m\d+`
	for range backups - 1 {
		b += `\+m\d+`
	}
	for _, s := range sellers {
		if !regexp.MustCompile(`\b` + s + ` m\d+/` + b + `\b`).MatchString(line) {
			t.Errorf("%s does not give %s a primary and %d backups: %q", what, s, backups, line)
		}
	}
}

// A secure alliance started by up in one directory, operated from another that holds nothing
// but the operator's keys (keys --out K: K/hosts/alliancectl): status through its etcd and
// through its search server, replicas through its etcd, load through its search server.
func TestEndToEndRemoteStatusReplicasLoad(t *testing.T) {
	bin := buildAll(t)
	base := t.TempDir()
	dir, keys, away := filepath.Join(base, "run"), filepath.Join(base, "keys"), t.TempDir()
	t.Cleanup(func() { killLeftovers(t, dir) })
	ctl(t, bin, dir, "keys", "--out", keys)
	ctl(t, bin, dir, "up", "3", "--keys", keys, "--bin", bin, "--search", freePort(t), "--proxies=false", "--per-day", "5")
	s, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	var endpoints, sellers []string
	for _, m := range s.machines("star") {
		endpoints = append(endpoints, "https://"+m.Ports.Client)
		sellers = append(sellers, m.Sellers...)
	}
	kit := "--keys=" + filepath.Join(keys, "hosts", ctlName)
	eps := "--endpoints=" + strings.Join(endpoints, ",")

	// status through etcd: the machines, the delegate, every seller's holders, the quorum.
	out, code := ctlFrom(t, bin, away, "status", eps, kit)
	if code != exitOK {
		t.Fatalf("status --endpoints: exit %d", code)
	}
	for _, want := range []string{"alliance star (read from its coordination tree", "delegate m1 (all 3 answering machines agree)",
		"quorum: 3 of 3 answering machines see a leader", "etcd: members m1 (voter), m2 (voter), m3 (voter); leader m", "3 of 3 endpoints answer",
		"tree: replicas 2, 6 sellers in the catalog", "machines in the view: m1 m2 m3"} {
		if !strings.Contains(out, want) {
			t.Errorf("status --endpoints lacks %q", want)
		}
	}
	for _, m := range s.machines("star") {
		if !regexp.MustCompile(`(?m)^  ` + m.Name + ` +` + m.Name + ` +https://` + m.Ports.Listen + ` +yes `).MatchString(out) {
			t.Errorf("status --endpoints has no row for %s at https://%s", m.Name, m.Ports.Listen)
		}
	}
	checkHolders(t, "the tree's seller line", lineWith(out, "sellers (as the tree says)"), sellers, 1)
	checkHolders(t, "the view's seller line", lineWith(out, "sellers (as the view says)"), sellers, 1)

	// status through the search server: its registrations name the delegate, whose view names the rest.
	out, code = ctlFrom(t, bin, away, "status", "--search="+s.Search, kit)
	if code != exitOK {
		t.Fatalf("status --search: exit %d", code)
	}
	for _, want := range []string{"search server " + s.Search + ": registered: star → https://", "read from m1's /status",
		"delegate m1 (all 3 answering machines agree)", "quorum: 3 of 3 answering machines see a leader", "machines in the view: m1 m2 m3"} {
		if !strings.Contains(out, want) {
			t.Errorf("status --search lacks %q", want)
		}
	}
	checkHolders(t, "the view's seller line", lineWith(out, "sellers (as the view says)"), sellers, 1)

	// Errors name the flag to fix.
	other := filepath.Join(base, "other")
	ctl(t, bin, dir, "keys", "--out", other)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{eps, "--keys=" + filepath.Join(other, "hosts", ctlName)}, "--keys: " + endpoints[0] + " (--endpoints) presents a certificate that is not signed by the CA --keys gave"},
		{[]string{eps, "--cacert=" + filepath.Join(keys, "ca.crt")}, "--cert: " + endpoints[0] + " (--endpoints) wants a client certificate"},
		{[]string{"--endpoints=https://" + freePort(t), kit}, "is unreachable"},
		{[]string{"--endpoints=" + strings.Replace(endpoints[0], "https", "http", 1), kit}, "use https://"},
	} {
		out, code := ctlFrom(t, bin, away, append([]string{"status"}, c.args...)...)
		if code != exitFailure || !strings.Contains(out, c.want) {
			t.Errorf("status %v: exit %d, want %d with %q", c.args, code, exitFailure, c.want)
		}
	}

	// replicas through etcd: K is written, every machine re-places, the tree says K.
	out, code = ctlFrom(t, bin, away, "replicas", "3", eps, kit)
	if code != exitOK || !strings.Contains(out, "replicas 2 → 3") || !strings.Contains(out, "/alliances/star/config in the tree says replicas 3") {
		t.Fatalf("replicas 3 --endpoints: exit %d", code)
	}
	cli, err := s.etcdClient(endpoints)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := cli.Get(ctx, "/alliances/star/config")
	if err != nil || len(resp.Kvs) != 1 || string(resp.Kvs[0].Value) != `{"replicas":3}` {
		t.Fatalf("/alliances/star/config after replicas 3: %v, %v", resp, err)
	}
	out, _ = ctlFrom(t, bin, away, "status", eps, kit)
	if !strings.Contains(out, "replicas 3; delegate") || !strings.Contains(out, "tree: replicas 3") {
		t.Errorf("status after replicas 3 does not show K = 3")
	}
	checkHolders(t, "the tree's seller line after replicas 3", lineWith(out, "sellers (as the tree says)"), sellers, 2)

	// load through the search server, over the routes of the sellers' files.
	out, code = ctlFrom(t, bin, away, "load", "--search="+s.Search, "--data="+filepath.Join(dir, "data"),
		"--cacert="+filepath.Join(keys, "hosts", ctlName, "ca.crt"), "--rate", "20", "--for", "2s")
	if code != exitOK || !regexp.MustCompile(`complete 40 +incomplete 0 +errors 0`).MatchString(out) {
		t.Errorf("load --search: exit %d", code)
	}
	procs := recordedPids(t, dir)
	ctl(t, bin, dir, "down")
	assertAllGone(t, procs)
}
