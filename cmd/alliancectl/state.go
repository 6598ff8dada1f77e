package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// stateFile is the name of the state file inside the run directory.
const stateFile = "state.json"

// errNoState says the run directory has no state.json: nothing was started there (or it is down).
var errNoState = errors.New("no state.json (nothing is up in this run directory)")

// State is what a run directory holds: how the processes were made and every process started.
type State struct {
	Dir       string     `json:"dir"`                     // absolute run directory
	Bin       string     `json:"bin"`                     // absolute directory of airline, search, flights
	Data      DataSpec   `json:"data"`                    // how the sellers' CSV files were generated
	Search    string     `json:"search"`                  // the search server's base URL
	Alliances []Alliance `json:"alliances"`               // in start order
	Procs     []Proc     `json:"processes"`               // in start order; search first
	Query     Query      `json:"query"`                   // a query that has trips, for readiness and hints
	LogLevel  string     `json:"log_level"`               // --log-level of every server
	Extra     []string   `json:"airline_flags,omitempty"` // extra flags of every airline server
	Keys      string     `json:"keys,omitempty"`          // absolute keys directory; "" for an open run (--insecure)
	Created   time.Time  `json:"created_at"`              // when `up` ran
}

// Alliance is one alliance of the run.
type Alliance struct {
	Name  string `json:"name"`
	Peers string `json:"peers"` // the --peers list it was bootstrapped with
	// Replicas is the K `alliancectl replicas` last set (0: never changed): a machine whose
	// recorded command line gives --replicas restarts with this value.
	Replicas int `json:"replicas,omitempty"`
}

// Proc is one process started by alliancectl. Args is its whole argv (Args[0] the absolute
// binary path); a pid is signalled only while /proc says it still runs exactly Args.
type Proc struct {
	Name     string   `json:"name"` // "search" or the machine name (unique in the run)
	Kind     string   `json:"kind"` // kindSearch or kindAirline
	Alliance string   `json:"alliance,omitempty"`
	Sellers  []string `json:"sellers,omitempty"`
	Zone     string   `json:"zone,omitempty"` // its --zone; "" when it is a zone of its own
	Pid      int      `json:"pid"`
	Args     []string `json:"args"`
	Ports    Ports    `json:"ports"`
	// Advertise, for a machine behind proxies, are the proxies' addresses: what every other
	// process is told to use instead of Ports. Nil when the machine is reached directly.
	Advertise *Ports    `json:"advertise,omitempty"`
	Log       string    `json:"log"`
	Started   time.Time `json:"started_at"`
	TLS       bool      `json:"tls,omitempty"` // it serves HTTPS
}

// Process kinds.
const (
	kindSearch  = "search"
	kindAirline = "airline"
	kindProxyd  = "proxyd" // the proxy daemon (up --proxies); Ports.Listen is its control API
)

// proxydName is the process name of the proxy daemon in state.json.
const proxydName = "proxies"

// Ports are the loopback addresses a process listens on.
type Ports struct {
	Listen string `json:"listen"`           // HTTP: REST for search, SOAP and /status for airline
	Peer   string `json:"peer,omitempty"`   // embedded etcd peer URL (airline)
	Client string `json:"client,omitempty"` // embedded etcd client URL (airline)
}

// URL is the process's HTTP base URL.
func (p Proc) URL() string {
	if p.TLS {
		return "https://" + p.Ports.Listen
	}
	return "http://" + p.Ports.Listen
}

// DataSpec is how `flights generate` made the CSV files; `add` reuses it for new sellers.
type DataSpec struct {
	Dir    string `json:"dir"`
	From   string `json:"from"`
	Days   int    `json:"days"`
	PerDay int    `json:"per_day"`
	Seed   int64  `json:"seed"`
}

// Query is one search: src, dst and an ISO date.
type Query struct {
	Src  string `json:"src"`
	Dst  string `json:"dst"`
	Date string `json:"date"`
}

// proc returns the process named name.
func (s *State) proc(name string) (*Proc, error) {
	for i := range s.Procs {
		if s.Procs[i].Name == name {
			return &s.Procs[i], nil
		}
	}
	return nil, fmt.Errorf("no process named %q in %s (known: %v)", name, filepath.Join(s.Dir, stateFile), s.names())
}

func (s *State) names() []string {
	out := make([]string, 0, len(s.Procs))
	for _, p := range s.Procs {
		out = append(out, p.Name)
	}
	return out
}

// machines lists the airline processes of one alliance ("" for all), in start order.
func (s *State) machines(alliance string) []*Proc {
	var out []*Proc
	for i := range s.Procs {
		p := &s.Procs[i]
		if p.Kind == kindAirline && (alliance == "" || p.Alliance == alliance) {
			out = append(out, p)
		}
	}
	return out
}

// takenAddrs lists every address some process of the run was given, so new ones differ.
func (s *State) takenAddrs() map[string]bool {
	out := map[string]bool{}
	for _, p := range s.Procs {
		addrs := []string{p.Ports.Listen, p.Ports.Peer, p.Ports.Client}
		if p.Advertise != nil {
			addrs = append(addrs, p.Advertise.Listen, p.Advertise.Peer, p.Advertise.Client)
		}
		for _, a := range addrs {
			if a != "" {
				out[a] = true
			}
		}
	}
	return out
}

// proxyd returns the proxy daemon's record, nil when the run has no proxies.
func (s *State) proxyd() *Proc {
	for i := range s.Procs {
		if s.Procs[i].Kind == kindProxyd {
			return &s.Procs[i]
		}
	}
	return nil
}

// searchForMachines is the search server's base URL as the machines are told it: its proxy's
// when it has one.
func (s *State) searchForMachines() string {
	for _, p := range s.Procs {
		if p.Kind == kindSearch && p.Advertise != nil {
			return s.scheme() + p.Advertise.Listen
		}
	}
	return s.Search
}

// advertised are the addresses others use for a machine: its proxies' when it has them.
func (p Proc) advertised() Ports {
	if p.Advertise != nil {
		return *p.Advertise
	}
	return p.Ports
}

func (s *State) hasAlliance(name string) bool {
	return slices.ContainsFunc(s.Alliances, func(a Alliance) bool { return a.Name == name })
}

// openState resolves the --dir flag's value and loads the state recorded there.
func openState(dir string) (*State, string, error) {
	abs, err := absDir("--dir", dir)
	if err != nil {
		return nil, "", err
	}
	s, err := loadState(abs)
	return s, abs, err
}

// loadState reads dir/state.json; errNoState when there is none.
func loadState(dir string) (*State, error) {
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, errNoState)
	}
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, stateFile), err)
	}
	return &s, nil
}

// saveState writes s to s.Dir/state.json atomically (temp file, then rename).
func saveState(s *State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.Dir, stateFile+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(s.Dir, stateFile))
}

// updateState runs change on the current state under the run directory's lock and saves the
// result, so two alliancectl commands (say `run` in one terminal, `restart` in another) never
// lose each other's updates.
func updateState(dir string, change func(*State) error) error {
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	s, err := loadState(dir)
	if err != nil {
		return err
	}
	if err := change(s); err != nil {
		return err
	}
	return saveState(s)
}

// lockDir takes an exclusive flock on dir/state.lock; the returned func releases it.
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, "state.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking the run directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
