package integration

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/flight/flightfile"
	"flightalliance/soap"
)

// testDate is the first day of the generated schedules.
var testDate = flight.Date{Y: 2026, M: 12, D: 1}

// machine is one airline server process of a test alliance.
type machine struct {
	name    string
	listen  string
	peer    string
	client  string
	sellers []string
	dataDir string
	extra   []string
	scheme  string // "http://", or "https://" in a secure alliance
	proc    *proc
	down    bool // stopped on purpose by the test
	paused  bool // SIGSTOPped by the test
	cut     bool // partitioned by the test

	// With a faultNet, others reach the machine through these proxies.
	soapProxy, peerProxy, clientProxy string
}

// advertised returns the addresses others use for the machine: its proxies', when it has them.
func (m *machine) advertisedPeer() string {
	if m.peerProxy != "" {
		return m.peerProxy
	}
	return m.peer
}

func (m *machine) advertisedClient() string {
	if m.clientProxy != "" {
		return m.clientProxy
	}
	return m.client
}

// url is where the test reaches the machine: directly, never through its proxy.
func (m *machine) url() string { return m.scheme + m.listen }

// testAlliance is an alliance of airline server processes started by a test.
type testAlliance struct {
	t        testing.TB
	dir      string
	name     string
	order    []string
	machines map[string]*machine
	data     map[string][]flight.Flight // every generated seller, including spares for machines added later
	active   map[string]bool            // sellers brought by the machines started so far
	search   []string
	peers    string
	net      *faultNet // proxies in front of every machine, when the test injects partitions
	// In a secure alliance every machine has a certificate of the test CA and the alliance's
	// token (tokenFile); its URLs are https://.
	secure    bool
	token     string
	tokenFile string
}

// spareSellers get data files too, for machines a test adds later.
var spareSellers = []string{"KL", "IB", "AZ", "OS"}

// allianceOpts are the knobs of a test alliance.
type allianceOpts struct {
	extra  []string // airline flags for every machine
	search []string // search servers to register with
	net    bool     // put every machine behind proxies that can cut it off
	perDay int      // flights per seller per day (default 60)
	days   int      // days of flights (default 2)
	secure bool     // a token and TLS (certificates of the test CA) on every machine
}

// newAlliance generates one seller file per seller and starts one machine per entry of
// sellersOf (machine name → the sellers it brings), bootstrapped together from --peers.
func newAlliance(t testing.TB, name string, sellersOf map[string][]string, search ...string) *testAlliance {
	t.Helper()
	return startAlliance(t, name, sellersOf, allianceOpts{search: search})
}

// newAllianceArgs is newAlliance with extra airline flags for every machine.
func newAllianceArgs(t testing.TB, name string, sellersOf map[string][]string, extra []string, search ...string) *testAlliance {
	t.Helper()
	return startAlliance(t, name, sellersOf, allianceOpts{extra: extra, search: search})
}

// newProxiedAlliance is newAllianceArgs with every machine behind proxies that can cut it off.
func newProxiedAlliance(t testing.TB, name string, sellersOf map[string][]string, extra []string, search ...string) *testAlliance {
	t.Helper()
	return startAlliance(t, name, sellersOf, allianceOpts{extra: extra, search: search, net: true})
}

func startAlliance(t testing.TB, name string, sellersOf map[string][]string, opts allianceOpts) *testAlliance {
	t.Helper()
	a := prepareAlliance(t, name, sellersOf, opts)
	for _, n := range a.order {
		a.start(n)
	}
	return a
}

func prepareAlliance(t testing.TB, name string, sellersOf map[string][]string, opts allianceOpts) *testAlliance {
	t.Helper()
	dir := t.TempDir()
	all := slices.Clone(spareSellers)
	for _, m := range slices.Sorted(maps.Keys(sellersOf)) {
		all = append(all, sellersOf[m]...)
	}
	perDay, days := cmp.Or(opts.perDay, 60), cmp.Or(opts.days, 2)
	data, err := flight.Generate(flight.GenerateConfig{Sellers: all, From: testDate, Days: days, PerDay: perDay, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := flightfile.WriteDir(filepath.Join(dir, "data"), data); err != nil {
		t.Fatal(err)
	}
	var net *faultNet
	if opts.net {
		net = newFaultNet(t)
	}
	a := &testAlliance{t: t, dir: dir, name: name, machines: map[string]*machine{}, data: data,
		active: map[string]bool{}, search: opts.search, net: net, secure: opts.secure}
	if opts.secure {
		a.token, a.tokenFile = writeToken(t, dir, name)
	}
	var peers []string
	for _, n := range slices.Sorted(maps.Keys(sellersOf)) {
		m := a.newMachine(n, sellersOf[n], slices.Clone(opts.extra))
		peers = append(peers, n+"="+m.scheme+m.advertisedPeer())
	}
	a.peers = strings.Join(peers, ",")
	return a
}

// newMachine allocates a machine's addresses (and proxies, with a faultNet).
func (a *testAlliance) newMachine(name string, sellers, extra []string) *machine {
	m := &machine{name: name, listen: freeAddr(a.t), peer: freeAddr(a.t), client: freeAddr(a.t),
		sellers: sellers, dataDir: filepath.Join(a.dir, "var", name), extra: extra, scheme: "http://"}
	if a.secure {
		m.scheme = "https://"
		m.extra = append(append([]string{"--token-file", a.tokenFile}, tlsArgs(issueFiles(a.t, a.dir, name))...), m.extra...)
	}
	if a.net != nil {
		m.soapProxy = a.net.proxy(name+"-soap", m.listen)
		m.peerProxy = a.net.proxy(name+"-peer", m.peer)
		m.clientProxy = a.net.proxy(name+"-client", m.client)
	}
	a.machines[name] = m
	a.order = append(a.order, name)
	return m
}

func (a *testAlliance) args(m *machine) []string {
	args := []string{"--name", m.name, "--alliance", a.name, "--listen", m.listen,
		"--peer-listen", m.peer, "--client-listen", m.client, "--data-dir", m.dataDir,
		"--log-level", "info"}
	for _, s := range m.sellers {
		args = append(args, "--seller", s+"="+filepath.Join(a.dir, "data", s+".csv"))
	}
	for _, s := range a.search {
		args = append(args, "--search", s)
	}
	if m.soapProxy != "" {
		args = append(args, "--advertise-url", m.scheme+m.soapProxy,
			"--peer-advertise", m.peerProxy, "--client-advertise", m.clientProxy)
	}
	return append(args, m.extra...)
}

func (a *testAlliance) start(name string) {
	m := a.machines[name]
	args := a.args(m)
	if !slices.Contains(m.extra, "--join") {
		args = append(args, "--peers", a.peers)
	}
	for _, s := range m.sellers {
		a.active[s] = true
	}
	m.down = false
	m.proc = startProc(a.t, a.dir, name, "airline", args...)
}

// add starts a new machine that joins the running alliance with --join.
func (a *testAlliance) add(name string, sellers ...string) {
	a.t.Helper()
	var join []string
	for _, n := range a.live() {
		join = append(join, a.machines[n].scheme+a.machines[n].advertisedClient())
	}
	a.newMachine(name, sellers, []string{"--join", strings.Join(join, ",")})
	a.start(name)
}

// kill sends SIGKILL (a paused machine dies too, and is no longer paused).
func (a *testAlliance) kill(name string) {
	a.machines[name].down = true
	a.machines[name].proc.kill()
	a.machines[name].paused = false
}

// restart runs the machine again with the same command line.
func (a *testAlliance) restart(name string) {
	m := a.machines[name]
	m.down = true
	m.proc.kill()
	m.down, m.paused = false, false
	m.proc.start(a.t)
}

// pause stops a machine with SIGSTOP (a GC pause or a stuck VM in miniature); resume continues it.
func (a *testAlliance) pause(name string) {
	a.machines[name].paused = true
	a.machines[name].proc.signal(syscall.SIGSTOP)
}

func (a *testAlliance) resume(name string) {
	a.machines[name].proc.signal(syscall.SIGCONT)
	a.machines[name].paused = false
}

// partition cuts the machine off: nothing reaches it through its proxies. heal undoes it.
func (a *testAlliance) partition(name string) {
	a.machines[name].cut = true
	for _, p := range []string{name + "-soap", name + "-peer", name + "-client"} {
		a.net.blackhole(p)
	}
}

func (a *testAlliance) heal(name string) {
	for _, p := range []string{name + "-soap", name + "-peer", name + "-client"} {
		a.net.restore(p)
	}
	a.machines[name].cut = false
}

// crashed names a machine whose process exited without the test stopping it.
func (a *testAlliance) crashed() error {
	for _, n := range a.order {
		if m := a.machines[n]; !m.down && !m.proc.running() {
			return fmt.Errorf("machine %s exited on its own (see its log)", n)
		}
	}
	return nil
}

// live lists the machines whose processes run and are not paused.
func (a *testAlliance) live() []string {
	var out []string
	for _, n := range a.order {
		if p := a.machines[n].proc; p != nil && p.running() && !a.machines[n].paused && !a.machines[n].cut {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// sellers lists every seller brought into the alliance so far.
func (a *testAlliance) sellers() []string { return slices.Sorted(maps.Keys(a.active)) }

// activeData is the flight data of the alliance's sellers: what its answers must reflect.
func (a *testAlliance) activeData() map[string][]flight.Flight {
	out := map[string][]flight.Flight{}
	for s := range a.active {
		out[s] = a.data[s]
	}
	return out
}

// etcd returns a client to the live machines' etcd members.
func (a *testAlliance) etcd() *clientv3.Client {
	a.t.Helper()
	var eps []string
	for _, n := range a.live() {
		eps = append(eps, a.machines[n].scheme+a.machines[n].client)
	}
	cfg := clientv3.Config{Endpoints: eps, DialTimeout: 2 * time.Second}
	if a.secure {
		cfg.TLS = testerTLS
	}
	cli, err := clientv3.New(cfg)
	if err != nil {
		a.t.Fatal(err)
	}
	return cli
}

// treeState is the placement as the coordination tree shows it.
type treeState struct {
	machines map[string]machineEntry
	holders  map[string]map[string]string // seller → machine → PRIMARY/BACKUP
}

type machineEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
}

func (a *testAlliance) readTree(ctx context.Context) (treeState, error) {
	cli := a.etcd()
	defer cli.Close()
	prefix := "/alliances/" + a.name + "/"
	resp, err := cli.Get(ctx, prefix, clientv3.WithPrefix())
	if err != nil {
		return treeState{}, err
	}
	st := treeState{machines: map[string]machineEntry{}, holders: map[string]map[string]string{}}
	for _, kv := range resp.Kvs {
		parts := strings.Split(strings.TrimPrefix(string(kv.Key), prefix), "/")
		switch {
		case len(parts) == 2 && parts[0] == "machines":
			var e machineEntry
			if err := json.Unmarshal(kv.Value, &e); err != nil {
				return treeState{}, fmt.Errorf("%s: %w", kv.Key, err)
			}
			st.machines[parts[1]] = e
		case len(parts) == 3 && parts[0] == "sellers":
			if st.holders[parts[1]] == nil {
				st.holders[parts[1]] = map[string]string{}
			}
			st.holders[parts[1]][parts[2]] = string(kv.Value)
		}
	}
	return st, nil
}

// checkInvariants checks DESIGN.md's placement invariants 1, 2 and the agreement of the machine
// entries with the seller entries, for the given live machines and sellers.
func checkInvariants(st treeState, live, sellers []string) error {
	if got := slices.Sorted(maps.Keys(st.machines)); !slices.Equal(got, live) {
		return fmt.Errorf("machines in the tree %v, want the live ones %v", got, live)
	}
	primaries, backups := map[string]int{}, map[string]int{}
	for _, s := range sellers {
		var p, b []string
		for _, m := range live {
			e := st.machines[m]
			if slices.Contains(e.Primaries, s) {
				p = append(p, m)
				primaries[m]++
			}
			if slices.Contains(e.Backups, s) {
				b = append(b, m)
				backups[m]++
			}
			role := st.holders[s][m]
			want := ""
			if slices.Contains(e.Primaries, s) {
				want = "PRIMARY"
			} else if slices.Contains(e.Backups, s) {
				want = "BACKUP"
			}
			if role != want {
				return fmt.Errorf("seller %s on %s: seller entry says %q, machine entry says %q", s, m, role, want)
			}
		}
		if len(p) != 1 {
			return fmt.Errorf("seller %s has primaries %v", s, p)
		}
		wantBackups := 1
		if len(live) < 2 {
			wantBackups = 0
		}
		if len(b) != wantBackups {
			return fmt.Errorf("seller %s has backups %v with %d machines", s, b, len(live))
		}
		if len(b) == 1 && b[0] == p[0] {
			return fmt.Errorf("seller %s has primary and backup on %s", s, p[0])
		}
	}
	if spread(primaries, live) > 1 || spread(backups, live) > 1 {
		return fmt.Errorf("unbalanced: primaries %v backups %v", primaries, backups)
	}
	return nil
}

func spread(count map[string]int, live []string) int {
	lo, hi := 1<<30, 0
	for _, m := range live {
		lo, hi = min(lo, count[m]), max(hi, count[m])
	}
	return hi - lo
}

// waitSettled waits until the tree shows exactly the live machines and the invariants hold.
func (a *testAlliance) waitSettled(timeout time.Duration) time.Duration {
	a.t.Helper()
	return eventually(a.t, timeout, "placement settled", func() error {
		if err := a.crashed(); err != nil {
			a.t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		st, err := a.readTree(ctx)
		if err != nil {
			return err
		}
		return checkInvariants(st, a.live(), a.sellers())
	})
}

// status is the part of GET /status the tests read.
type status struct {
	Name     string   `json:"name"`
	Delegate string   `json:"delegate"`
	Acting   bool     `json:"acting_delegate"`
	Joining  bool     `json:"joining"`
	Serving  []string `json:"serving"`
	Round    struct {
		ID    int64  `json:"id"`
		Phase string `json:"phase"`
	} `json:"round"`
}

func (a *testAlliance) status(name string) (status, error) {
	var st status
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	err := getJSON(ctx, a.machines[name].url()+"/status", &st)
	return st, err
}

// delegate asks every live machine who the delegate is and returns it once they all agree on a
// live one.
func (a *testAlliance) delegate() string {
	a.t.Helper()
	var agreed string
	eventually(a.t, 30*time.Second, "machines agree on the delegate", func() error {
		seen := map[string]bool{}
		for _, n := range a.live() {
			st, err := a.status(n)
			if err != nil {
				return err
			}
			seen[st.Delegate] = true
			agreed = st.Delegate
		}
		if len(seen) != 1 || agreed == "" {
			return fmt.Errorf("delegates seen: %v", slices.Sorted(maps.Keys(seen)))
		}
		if !slices.Contains(a.live(), agreed) {
			return fmt.Errorf("the machines agree on %s, which is down (its lease has not expired yet)", agreed)
		}
		return nil
	})
	return agreed
}

// getTrips calls SellerService.getTrips on a machine.
func (a *testAlliance) getTrips(ctx context.Context, machine string, q query) (*soap.GetTripsResponse, error) {
	c := soap.NewSellerClient(a.machines[machine].url()+"/Services/SellerService", soap.ClientOptions{Timeout: 10 * time.Second, HTTPClient: httpClient})
	return c.GetTrips(ctx, soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String(), Sellers: q.sellers})
}
