package manifests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// binDir holds the airline and search binaries the check-config test builds, once per run.
var (
	binDir   string
	buildErr error
	build    sync.Once
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// serverBinary builds the servers (once) and returns the path of binary, failing the test
// with a clear message when it has no --check-config.
func serverBinary(t *testing.T, binary string) string {
	t.Helper()
	build.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "manifests-bin-"); buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "flightalliance/cmd/airline", "flightalliance/cmd/search")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	bin := filepath.Join(binDir, binary)
	help, _ := exec.Command(bin, "--help").CombinedOutput() // --help exits 0 or 2 by the flag package's habit
	if !strings.Contains(string(help), "-check-config") {
		t.Fatalf("%s has no --check-config flag yet, so the deployment files' command lines and environments cannot be "+
			"checked against it (it comes with the servers' env/config/probe flags; until then this test fails)", binary)
	}
	return bin
}

// TestServersAcceptTheirConfiguration runs every pod's, Compose service's and systemd unit's
// command line and environment through the real binary's --check-config, in a directory that
// holds the files the platform would mount (keys, seller files, data volumes) at the paths the
// configuration names.
func TestServersAcceptTheirConfiguration(t *testing.T) {
	keys := newTestKeys(t)
	sellers := sellerFiles(t)
	all := append(append(k8sLaunches(t, keys), composeLaunches(t, keys, sellers)...), systemdLaunches(t, keys, sellers)...)
	bins := map[string]string{"airline": serverBinary(t, "airline"), "search": serverBinary(t, "search")}
	for _, l := range all {
		t.Run(strings.NewReplacer("/", "_", " ", "_").Replace(l.what), func(t *testing.T) {
			root := t.TempDir()
			inRoot := rooted(root)
			for p, data := range l.files {
				file := filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, data, 0o600); err != nil { // the user's own, as mounted or copied
					t.Fatal(err)
				}
			}
			for _, d := range l.dirs {
				if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--check-config"}
			for _, a := range l.args {
				args = append(args, inRoot.Replace(a))
			}
			own := serverVars(l.env, inRoot)
			cmd := exec.Command(bins[l.binary], args...)
			cmd.Dir = root
			cmd.Env = append(inheritedEnv(), own...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s --check-config refused the configuration of %s: %v\n%s\nenvironment:\n  %s\narguments: %q",
					l.binary, l.what, err, out, strings.Join(own, "\n  "), args)
			}
		})
	}
}

// rooted moves the absolute paths the deployment files use under root.
func rooted(root string) *strings.Replacer {
	var pairs []string
	for _, p := range []string{"/etc/flightalliance", "/run/flightalliance", "/var/lib/flightalliance"} {
		pairs = append(pairs, p, filepath.Join(root, p))
	}
	return strings.NewReplacer(pairs...)
}

// inheritedEnv is this process's environment without any FA_AIRLINE_ or FA_SEARCH_ variable.
func inheritedEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FA_AIRLINE_") && !strings.HasPrefix(kv, "FA_SEARCH_") {
			out = append(out, kv)
		}
	}
	return out
}

// serverVars are env's variables as NAME=value, paths moved under the test's root, sorted.
func serverVars(env map[string]string, inRoot *strings.Replacer) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+inRoot.Replace(v))
	}
	sort.Strings(out)
	return out
}
