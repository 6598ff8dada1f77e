package manifests

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const composeFile = "compose/docker-compose.yml"

// The parts of a Compose file the cluster relies on.
type compose struct {
	Services map[string]composeService `json:"services"`
	Networks map[string]*struct {
		Internal bool `json:"internal"`
	} `json:"networks"`
	Volumes map[string]any `json:"volumes"`
}

type composeService struct {
	Image       string          `json:"image"`
	Hostname    string          `json:"hostname"`
	Command     []string        `json:"command"`
	Environment json.RawMessage `json:"environment"` // a map or a list of NAME=value
	Volumes     []string        `json:"volumes"`
	Ports       []string        `json:"ports"`
	Networks    []string        `json:"networks"`
	ReadOnly    bool            `json:"read_only"`
	Profiles    []string        `json:"profiles"`
	CapDrop     []string        `json:"cap_drop"`
}

// env is the service's environment as a map, ${VAR:-default} read as its default.
func (s composeService) env(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{}
	if len(s.Environment) == 0 {
		return env
	}
	var list []string
	if json.Unmarshal(s.Environment, &list) == nil {
		for _, kv := range list {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = interpolate(v)
		}
		return env
	}
	if err := json.Unmarshal(s.Environment, &env); err != nil {
		t.Fatalf("environment: %v", err)
	}
	for k, v := range env {
		env[k] = interpolate(v)
	}
	return env
}

// mounts maps each container path of the service's volumes to its source (a named volume or a
// host path, interpolated), and says which are read-only.
func (s composeService) mounts() (sources map[string]string, readOnly map[string]bool) {
	sources, readOnly = map[string]string{}, map[string]bool{}
	for _, v := range s.Volumes {
		parts := strings.Split(interpolate(v), ":")
		if len(parts) < 2 {
			continue
		}
		sources[parts[1]] = parts[0]
		readOnly[parts[1]] = len(parts) > 2 && strings.Contains(parts[2], "ro")
	}
	return sources, readOnly
}

var defaultRef = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}`)

// interpolate reads ${VAR:-default} as Compose does when VAR is unset.
func interpolate(s string) string { return defaultRef.ReplaceAllString(s, "$1") }

// settings are a server's flags as its command line and environment give them (prefix
// FA_AIRLINE_ or FA_SEARCH_; the command line wins): flag name → value, repeated flags joined by
// commas.
func settings(argv []string, env map[string]string, prefix string) map[string]string {
	set := map[string]string{}
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !ok && i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
			value, i = argv[i+1], i+1
		}
		if set[name] != "" {
			value = set[name] + "," + value
		}
		set[name] = value
	}
	for k, v := range env {
		if name, ok := strings.CutPrefix(k, prefix); ok {
			flag := strings.ReplaceAll(strings.ToLower(name), "_", "-")
			if _, given := set[flag]; !given {
				set[flag] = v
			}
		}
	}
	return set
}

func loadCompose(t *testing.T) compose {
	t.Helper()
	var c compose
	decode(t, yamlDoc{file: composeFile, data: readFile(t, composeFile)}, &c)
	return c
}

// composeServers are the services running binary ("airline" or "search"), by name — the ones
// `up` starts, not the spares of a profile.
func (c compose) servers(binary string) []string {
	var names []string
	for name, s := range c.Services {
		if len(s.Command) > 0 && path.Base(s.Command[0]) == binary && len(s.Profiles) == 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func TestComposeMachines(t *testing.T) {
	c := loadCompose(t)
	machines, searches := c.servers("airline"), c.servers("search")
	if len(machines) != 3 || len(searches) != 1 {
		t.Fatalf("%s: machines %v and search servers %v, want three and one", composeFile, machines, searches)
	}
	search := c.Services[searches[0]]
	searchSet := settings(search.Command, search.env(t), "FA_SEARCH_")
	var peers []string
	for _, name := range machines {
		s := c.Services[name]
		set := settings(s.Command, s.env(t), "FA_AIRLINE_")
		peers = append(peers, fmt.Sprintf("%s=https://%s:%d", name, s.Hostname, listenPort(t, "peer-listen", set["peer-listen"])))
	}
	sellers := map[string]string{}
	for _, name := range machines {
		s := c.Services[name]
		set := settings(s.Command, s.env(t), "FA_AIRLINE_")
		sources, readOnly := s.mounts()
		if s.Hostname != name || set["name"] != name || set["zone"] != name {
			t.Errorf("service %s: hostname %q, --name %q, --zone %q: want the service's name for all three", name, s.Hostname, set["name"], set["zone"])
		}
		if set["peers"] != strings.Join(peers, ",") {
			t.Errorf("service %s: --peers %q, want %q", name, set["peers"], strings.Join(peers, ","))
		}
		if u, err := url.Parse(set["advertise-url"]); err != nil || u.Scheme != "https" || u.Hostname() != s.Hostname {
			t.Errorf("service %s: --advertise-url %q, want https://%s:PORT", name, set["advertise-url"], s.Hostname)
		}
		if u, err := url.Parse(set["search"]); err != nil || u.Scheme != "https" || u.Hostname() != search.Hostname ||
			u.Port() != fmt.Sprint(listenPort(t, "search --listen", searchSet["listen"])) {
			t.Errorf("service %s: --search %q does not reach the search server (%s, --listen %s)", name, set["search"], search.Hostname, searchSet["listen"])
		}
		// Its own etcd data on its own named volume.
		dataMount := mountFor(sources, set["data-dir"])
		if _, declared := c.Volumes[sources[dataMount]]; !declared || readOnly[dataMount] {
			t.Errorf("service %s: --data-dir %s is not on a writable named volume of the file", name, set["data-dir"])
		}
		// Its own keys only, read-only: the directory alliancectl keys writes for its host.
		for _, flag := range []string{"tls-cert", "tls-key", "tls-ca", "token-file"} {
			m := mountFor(sources, set[flag])
			if !strings.HasSuffix(sources[m], "/keys/hosts/"+name) || !readOnly[m] {
				t.Errorf("service %s: --%s %s is not in keys/hosts/%s mounted read-only (source %q)", name, flag, set[flag], name, sources[m])
			}
		}
		if path.Base(set["tls-cert"]) != name+".crt" || path.Base(set["tls-key"]) != name+".key" {
			t.Errorf("service %s: --tls-cert %s, --tls-key %s: not its own certificate", name, set["tls-cert"], set["tls-key"])
		}
		for _, sv := range strings.Split(set["seller"], ",") {
			code, file, _ := strings.Cut(sv, "=")
			if other, dup := sellers[code]; dup {
				t.Errorf("seller %s brought by %s and %s", code, other, name)
			}
			sellers[code] = name
			if m := mountFor(sources, file); !readOnly[m] || path.Base(file) != code+".csv" {
				t.Errorf("service %s: seller %s's file %s is not CODE.csv on a read-only mount", name, code, file)
			}
		}
		checkLockedDown(t, name, s)
		if slices.Contains(s.Networks, "front") || len(s.Ports) > 0 {
			t.Errorf("service %s: a machine publishes nothing and stays off the front network", name)
		}
	}
	var ports []string
	for _, p := range search.Ports {
		ports = append(ports, interpolate(p))
	}
	if !slices.Equal(ports, []string{"127.0.0.1:8443:" + fmt.Sprint(listenPort(t, "search --listen", searchSet["listen"]))}) {
		t.Errorf("search: ports %v, want only 127.0.0.1:8443 published", search.Ports)
	}
	checkLockedDown(t, searches[0], search)
}

func checkLockedDown(t *testing.T, name string, s composeService) {
	t.Helper()
	if !s.ReadOnly || !slices.Equal(s.CapDrop, []string{"ALL"}) {
		t.Errorf("service %s: want read_only and cap_drop [ALL]", name)
	}
}

// mountFor is the container path among mounts' keys that holds file.
func mountFor(mounts map[string]string, file string) string {
	best := ""
	for m := range mounts {
		if (file == m || strings.HasPrefix(file, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	return best
}

func TestSettings(t *testing.T) {
	got := settings([]string{"airline", "--name=m1", "--seller", "A=a.csv", "--seller=B=b.csv", "--force-new-cluster"},
		map[string]string{"FA_AIRLINE_NAME": "ignored", "FA_AIRLINE_DATA_DIR": "/d", "OTHER": "x"}, "FA_AIRLINE_")
	want := map[string]string{"name": "m1", "seller": "A=a.csv,B=b.csv", "force-new-cluster": "", "data-dir": "/d"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("settings = %v, want %v", got, want)
	}
}
