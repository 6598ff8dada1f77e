package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// upConfig is what `up` (and `run`) start.
type upConfig struct {
	Dir       string
	Bin       string
	Machines  int // per alliance
	Alliances int
	PerMach   int    // sellers each machine brings
	Search    string // host:port of the search server; port 0 picks a free one
	Data      DataSpec
	Wait      time.Duration
	LogLevel  string
	Airline   []string // extra airline flags, passed through
	Proxies   bool     // every machine behind proxies of a proxy daemon (partition, heal)
	Insecure  bool     // no keys: plain HTTP, no tokens
	Keys      string   // keys directory (alliancectl keys), made or completed when needed
}

// upFlags registers the flags `up` and `run` share.
func upFlags(fs *flag.FlagSet, cfg *upConfig) *string {
	bin := fs.String("bin", "bin", "directory holding the airline, search and flights binaries (make build)")
	fs.IntVar(&cfg.Alliances, "alliances", 1, "number of alliances")
	fs.IntVar(&cfg.PerMach, "sellers-per-machine", 2, "sellers each machine brings")
	fs.StringVar(&cfg.Search, "search", "127.0.0.1:8080", "search server address (127.0.0.1:0 picks a free port)")
	fs.StringVar(&cfg.Data.From, "from", "2026-12-01", "first day of the generated flights")
	fs.IntVar(&cfg.Data.Days, "days", 7, "days of generated flights")
	fs.IntVar(&cfg.Data.PerDay, "per-day", 20, "generated flights per seller per day")
	fs.Int64Var(&cfg.Data.Seed, "seed", 1, "seed of the generated flights")
	fs.DurationVar(&cfg.Wait, "wait", 2*time.Minute, "how long to wait for a complete search answer")
	fs.StringVar(&cfg.LogLevel, "log-level", "info", "log level of the airline and search servers")
	fs.BoolVar(&cfg.Proxies, "proxies", true, "put every machine behind proxies (one proxy daemon), which partition and heal need; --proxies=false: direct")
	fs.BoolVar(&cfg.Insecure, "insecure", false, "run everything open over plain HTTP: no TLS, no tokens, no keys")
	fs.StringVar(&cfg.Keys, "keys", "", "keys directory (alliancectl keys); what is missing is made there (default DIR/keys of --dir)")
	fs.Func("airline-flag", "extra flag for every airline server, e.g. --airline-flag=--session-ttl=5s (repeatable)",
		func(v string) error { cfg.Airline = append(cfg.Airline, v); return nil })
	return bin
}

func (cfg *upConfig) validate(dir, bin string) error {
	var err error
	if cfg.Dir, err = absDir("--dir", dir); err != nil {
		return err
	}
	if cfg.Bin, err = absDir("--bin", bin); err != nil {
		return err
	}
	cfg.Data.Dir = filepath.Join(cfg.Dir, "data")
	switch {
	case cfg.Insecure && cfg.Keys != "":
		return usagef("--keys: an --insecure run uses no keys")
	case cfg.Insecure:
	case cfg.Keys == "":
		cfg.Keys = filepath.Join(cfg.Dir, "keys")
	default:
		if cfg.Keys, err = absDir("--keys", cfg.Keys); err != nil {
			return err
		}
	}
	switch {
	case cfg.Machines < 1 || cfg.Machines > 50:
		return usagef("N: %d machines, want 1 to 50", cfg.Machines)
	case cfg.Alliances < 1 || cfg.Alliances > maxAlliances:
		return usagef("--alliances: %d, want 1 to %d", cfg.Alliances, maxAlliances)
	case cfg.PerMach < 1 || cfg.PerMach > 20:
		return usagef("--sellers-per-machine: %d, want 1 to 20", cfg.PerMach)
	case cfg.Data.Days < 1:
		return usagef("--days: %d, want at least 1", cfg.Data.Days)
	case cfg.Data.PerDay < 1:
		return usagef("--per-day: %d, want at least 1", cfg.Data.PerDay)
	case cfg.Wait <= 0:
		return usagef("--wait: %v, want a positive duration", cfg.Wait)
	case len(cfg.Data.From) != len("2006-01-02"):
		return usagef("--from: %q is not an ISO date such as 2026-12-01", cfg.Data.From)
	}
	if _, err := time.Parse(time.DateOnly, cfg.Data.From); err != nil {
		return usagef("--from: %q is not an ISO date such as 2026-12-01", cfg.Data.From)
	}
	if host, _, ok := strings.Cut(cfg.Search, ":"); !ok || host == "" {
		return usagef("--search: %q is not host:port such as 127.0.0.1:8080", cfg.Search)
	}
	return checkBinaries(cfg.Bin)
}

// checkBinaries says which binary is missing and how to build it.
func checkBinaries(bin string) error {
	for _, b := range []string{"airline", "search", "flights"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			return fmt.Errorf("%s not found: build the binaries first (make build, or go build -o %s/ ./cmd/...), or point --bin at them",
				filepath.Join(bin, b), bin)
		}
	}
	return nil
}

func cmdUp(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("up", "up N [--alliances K] [--sellers-per-machine S] [--search 127.0.0.1:8080] [flags]", out)
	var cfg upConfig
	bin := upFlags(fs, &cfg)
	pos, err := parse(fs, args, 1, "N, the number of machines per alliance")
	if err != nil {
		return err
	}
	if cfg.Machines, err = strconv.Atoi(pos[0]); err != nil {
		return usagef("N: %q is not a number of machines", pos[0])
	}
	if err := cfg.validate(*dir, *bin); err != nil {
		return err
	}
	s, err := up(ctx, cfg, out)
	if err != nil {
		return err
	}
	printHints(out, s, false)
	return nil
}

// up starts everything cfg asks for and waits until a search answers complete. On failure it
// stops whatever it started.
func up(ctx context.Context, cfg upConfig, out io.Writer) (*State, error) {
	if err := prepareDir(ctx, cfg.Dir, out); err != nil {
		return nil, err
	}
	if !cfg.Insecure {
		var alliances []string
		for i := range cfg.Alliances {
			alliances = append(alliances, allianceName(i))
		}
		if err := runKeys(keyDir(cfg.Keys), alliances, machineNames(cfg.Machines*cfg.Alliances), out); err != nil {
			return nil, err
		}
	}
	s, err := plan(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := saveState(s); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "generated %d days of flights from %s for sellers %s in %s\n",
		cfg.Data.Days, cfg.Data.From, strings.Join(allSellers(s), ","), cfg.Data.Dir)
	fail := func(err error) (*State, error) {
		fmt.Fprintf(out, "up failed: %v\nstopping what was started\n", err)
		if cur, lerr := loadState(cfg.Dir); lerr == nil {
			_ = stopAll(context.WithoutCancel(ctx), cur, 5*time.Second, out)
		}
		return nil, err
	}
	for i := range s.Procs {
		p := &s.Procs[i]
		if err := startProc(p); err != nil {
			return fail(err)
		}
		if err := updateState(cfg.Dir, func(cur *State) error {
			q, err := cur.proc(p.Name)
			if err == nil {
				q.Pid, q.Started = p.Pid, p.Started
			}
			return err
		}); err != nil {
			return fail(err)
		}
		fmt.Fprintf(out, "started %-8s pid %-7d %s  log %s\n", p.Name, p.Pid, p.URL(), p.Log)
		if p.Kind == kindProxyd {
			if err := waitProxyd(ctx, *p, 15*time.Second); err != nil {
				return fail(err)
			}
		}
	}
	took, err := waitReady(ctx, s, cfg.Wait)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(out, "a search through %s answers complete (%v after start)\n", s.Search, took.Round(time.Millisecond))
	return s, nil
}

// prepareDir makes the run directory ready for a fresh start: it refuses while processes of an
// earlier run still run, and clears the data, etcd data and logs an earlier run left.
func prepareDir(ctx context.Context, dir string, out io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	old, err := loadState(dir)
	switch {
	case errors.Is(err, errNoState):
	case err != nil:
		return err
	default:
		var live []string
		for _, p := range old.Procs {
			if inspect(p) != procGone {
				live = append(live, fmt.Sprintf("%s (pid %d)", p.Name, p.Pid))
			}
		}
		if len(live) > 0 {
			return fmt.Errorf("%s already has running processes: %s; stop them with `alliancectl down --dir %s`",
				dir, strings.Join(live, ", "), dir)
		}
		fmt.Fprintf(out, "%s: the earlier run's processes are all gone; starting afresh\n", dir)
	}
	for _, sub := range []string{"data", "etcd", "logs"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, stateFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// plan decides names, sellers and ports, generates the data, and returns the state to start.
func plan(ctx context.Context, cfg upConfig) (*State, error) {
	searchAddr := cfg.Search
	taken := map[string]bool{}
	if strings.HasSuffix(searchAddr, ":0") {
		a, err := freeAddrs(1, nil)
		if err != nil {
			return nil, err
		}
		searchAddr = a[0]
	} else if err := checkFree(searchAddr); err != nil {
		return nil, fmt.Errorf("--search: %w", err)
	}
	taken[searchAddr] = true
	perMachine := 3
	if cfg.Proxies {
		perMachine = 6 // and the proxies' addresses
	}
	addrs, err := freeAddrs(perMachine*cfg.Machines*cfg.Alliances+2, taken)
	if err != nil {
		return nil, err
	}
	apiAddr, searchProxy, addrs := addrs[0], addrs[1], addrs[2:]
	s := &State{Dir: cfg.Dir, Bin: cfg.Bin, Data: cfg.Data, Created: time.Now(), LogLevel: cfg.LogLevel, Extra: cfg.Airline}
	if !cfg.Insecure {
		s.Keys = cfg.Keys
	}
	s.Search = s.scheme() + searchAddr
	s.Procs = append(s.Procs, Proc{
		Name: "search", Kind: kindSearch, Ports: Ports{Listen: searchAddr}, TLS: s.secure(),
		Args: append([]string{filepath.Join(cfg.Bin, "search"), "--listen", searchAddr, "--log-level", cfg.LogLevel},
			s.searchSecurity()...),
		Log: filepath.Join(cfg.Dir, "logs", "search.log"),
	})
	if cfg.Proxies {
		// The machines reach the search server through a proxy too, so that a partitioned
		// machine cannot reach it either; clients (and alliancectl) use it directly.
		s.Procs[0].Advertise = &Ports{Listen: searchProxy}
		exe, err := selfBinary(cfg.Dir)
		if err != nil {
			return nil, err
		}
		s.Procs = append(s.Procs, Proc{
			Name: proxydName, Kind: kindProxyd, Ports: Ports{Listen: apiAddr},
			Args: []string{exe, "proxyd", "--dir", cfg.Dir},
			Log:  filepath.Join(cfg.Dir, "logs", proxydName+".log"),
		})
	}
	n := 0
	for i := range cfg.Alliances {
		a := Alliance{Name: allianceName(i)}
		var machines []Proc
		var peers []string
		for j := range cfg.Machines {
			n++
			at := addrs[perMachine*(n-1):]
			m := Proc{Name: "m" + strconv.Itoa(n), Kind: kindAirline, Alliance: a.Name, TLS: s.secure(),
				Ports: Ports{Listen: at[0], Peer: at[1], Client: at[2]}}
			if cfg.Proxies {
				m.Advertise = &Ports{Listen: at[3], Peer: at[4], Client: at[5]}
			}
			for k := range cfg.PerMach {
				m.Sellers = append(m.Sellers, sellerCode(i, j*cfg.PerMach+k, cfg.Alliances))
			}
			peers = append(peers, m.Name+"="+s.scheme()+m.advertised().Peer)
			machines = append(machines, m)
		}
		a.Peers = strings.Join(peers, ",")
		for _, m := range machines {
			m.Args = append(airlineArgs(s, m), "--peers", a.Peers)
			m.Log = filepath.Join(cfg.Dir, "logs", m.Name+".log")
			s.Procs = append(s.Procs, m)
		}
		s.Alliances = append(s.Alliances, a)
	}
	if err := generate(ctx, cfg.Bin, cfg.Data, allSellers(s)); err != nil {
		return nil, err
	}
	qs, err := routes(cfg.Data, s.machines(s.Alliances[0].Name)[0].Sellers)
	if err != nil {
		return nil, err
	}
	s.Query = showcase(qs, cfg.Data.From)
	return s, nil
}

// airlineArgs is a machine's command line without --peers or --join: up and add both build it
// here, so a machine added later runs as securely as the first ones.
func airlineArgs(s *State, m Proc) []string {
	args := []string{filepath.Join(s.Bin, "airline"), "--name", m.Name, "--alliance", m.Alliance}
	for _, code := range m.Sellers {
		args = append(args, "--seller", code+"="+s.Data.csvPath(code))
	}
	args = append(args, "--listen", m.Ports.Listen, "--peer-listen", m.Ports.Peer, "--client-listen", m.Ports.Client,
		"--search", s.searchForMachines(), "--data-dir", filepath.Join(s.Dir, "etcd", m.Name), "--log-level", s.LogLevel)
	if a := m.Advertise; a != nil {
		args = append(args, "--advertise-url", s.scheme()+a.Listen, "--peer-advertise", a.Peer, "--client-advertise", a.Client)
	}
	args = append(args, s.airlineSecurity(m)...)
	return append(args, s.Extra...)
}

func allSellers(s *State) []string {
	var out []string
	for _, m := range s.machines("") {
		out = append(out, m.Sellers...)
	}
	return out
}

// waitReady polls the showcase query until every alliance answers it completely and every
// alliance has settled (see settled), and fails
// early, with the log's last lines, if a process it started has exited.
func waitReady(ctx context.Context, s *State, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := s.client(5 * time.Second)
	if err != nil {
		return 0, err
	}
	names := make([]string, len(s.Alliances))
	for i, a := range s.Alliances {
		names[i] = a.Name
	}
	var last error
	for {
		cur, err := loadState(s.Dir)
		if err != nil {
			return 0, err
		}
		for _, p := range cur.Procs {
			if inspect(p) == procGone {
				return 0, fmt.Errorf("%s (pid %d) exited; last lines of %s:\n%s", p.Name, p.Pid, p.Log, logTail(p.Log, 3000))
			}
		}
		a, err := search(ctx, c, s.Search, s.Query)
		if err == nil {
			err = a.readyFor(names)
		}
		for _, n := range names {
			if err == nil {
				err = settled(ctx, c, s, n)
			}
		}
		if err == nil {
			return time.Since(start), nil
		}
		last = err
		select {
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				return 0, fmt.Errorf("no complete answer to %s within %v: %v (logs in %s)",
					searchURL(s.Search, s.Query), timeout, last, filepath.Join(s.Dir, "logs"))
			}
			return 0, fmt.Errorf("interrupted while waiting for a complete answer: %w", ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}
