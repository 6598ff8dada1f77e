package manifests

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// unit is a systemd unit file: section → key → values, in order (a key may repeat).
type unit map[string]map[string][]string

func parseUnit(t *testing.T, rel string) unit {
	t.Helper()
	u := unit{}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, rel)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("%s:%d: %q is not key=value in a section", rel, n, line)
			}
			u[section][strings.TrimSpace(k)] = append(u[section][strings.TrimSpace(k)], strings.TrimSpace(v))
		}
	}
	return u
}

// one is the single value of key in section ("" when unset), failing the test when it repeats.
func (u unit) one(t *testing.T, section, key string) string {
	t.Helper()
	vs := u[section][key]
	if len(vs) > 1 {
		t.Errorf("[%s] %s set %d times", section, key, len(vs))
	}
	if len(vs) == 0 {
		return ""
	}
	return vs[len(vs)-1]
}

// seconds reads a systemd time span such as 60, 90s or 1min 30s.
func seconds(t *testing.T, span string) time.Duration {
	t.Helper()
	if n, err := strconv.Atoi(span); err == nil {
		return time.Duration(n) * time.Second
	}
	d, err := time.ParseDuration(strings.NewReplacer("min", "m", " ", "").Replace(span))
	if err != nil {
		t.Fatalf("%q is not a time span", span)
	}
	return d
}

func TestSystemdUnits(t *testing.T) {
	for _, tc := range []struct {
		file, binary, envFile string
		writable              []string
	}{
		{"systemd/flightalliance-airline@.service", "/usr/local/bin/airline", "/etc/flightalliance/%i.env", []string{"/var/lib/flightalliance/%i"}},
		{"systemd/flightalliance-search.service", "/usr/local/bin/search", "/etc/flightalliance/search.env", nil},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			u := parseUnit(t, tc.file)
			want := map[string]string{
				"Type": "simple", "KillSignal": "SIGTERM", "Restart": "on-failure",
				"ProtectSystem": "strict", "NoNewPrivileges": "true", "EnvironmentFile": tc.envFile,
			}
			for k, v := range want {
				if got := u.one(t, "Service", k); got != v {
					t.Errorf("[Service] %s=%q, want %q", k, got, v)
				}
			}
			if user := u.one(t, "Service", "User"); user == "" || user == "root" || user == "0" {
				t.Errorf("[Service] User=%q: want a dedicated user", user)
			}
			if exec := strings.Fields(u.one(t, "Service", "ExecStart")); len(exec) == 0 || exec[0] != tc.binary {
				t.Errorf("[Service] ExecStart=%v, want %s", exec, tc.binary)
			}
			// A machine's leave hands its sellers over: at least a few rounds of calls.
			if stop := seconds(t, u.one(t, "Service", "TimeoutStopSec")); stop < 30*time.Second {
				t.Errorf("[Service] TimeoutStopSec=%v: too short for a clean leave (30s or more)", stop)
			}
			var rw []string
			for _, v := range u["Service"]["ReadWritePaths"] {
				rw = append(rw, strings.Fields(v)...)
			}
			if !slices.Equal(rw, tc.writable) {
				t.Errorf("[Service] ReadWritePaths=%v, want %v", rw, tc.writable)
			}
			if u.one(t, "Install", "WantedBy") != "multi-user.target" {
				t.Errorf("[Install] WantedBy=%q, want multi-user.target", u.one(t, "Install", "WantedBy"))
			}
		})
	}
}

// TestSystemdVerify has systemd read the units: an unknown key or a bad value is a warning it
// prints. The binaries are not installed here, which it also says; that is left out.
func TestSystemdVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed: the units' keys are not checked by systemd")
	}
	dir := t.TempDir()
	airline := readFile(t, "systemd/flightalliance-airline@.service")
	search := readFile(t, "systemd/flightalliance-search.service")
	if err := os.WriteFile(filepath.Join(dir, "flightalliance-airline@m1.service"), airline, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flightalliance-search.service"), search, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(analyze, "verify", "./flightalliance-airline@m1.service", "./flightalliance-search.service")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput() // it fails on the missing binaries; its output says what else
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" && !strings.Contains(line, "is not executable: No such file or directory") {
			t.Errorf("systemd-analyze verify: %s", line)
		}
	}
}
