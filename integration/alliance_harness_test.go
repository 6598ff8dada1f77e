package integration

import (
	"cmp"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/flight/flightfile"
	"flightalliance/internal/airlinecmd"
	"flightalliance/internal/pki"
	"flightalliance/tests/framework"
	"flightalliance/tests/framework/membership"
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
	join    string // the members it joins through (--join), when added to a running alliance
	// zone and peerZones (every machine's "name=zone"), when the alliance has zones.
	zone      string
	peerZones []string
	tokenFile string     // the alliance's token, in a secure alliance
	tls       *pki.Files // its certificate, in a secure alliance
	extra     []string   // the test's own flags, last on its command line
	scheme    string     // "http://", or "https://" in a secure alliance
	pprof     string     // where it serves runtime profiles (--pprof), when allianceOpts.pprof
	proc      *framework.Proc
	down      bool // stopped on purpose by the test
	paused    bool // SIGSTOPped by the test
	cut       bool // partitioned by the test

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
	watch    *membership.Watch
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
	// open runs the alliance in the open mode: plain HTTP, no token. By default every
	// machine runs as make run starts it: its alliance's token, TLS with a certificate of the
	// test CA on SOAP, /status and etcd's peer and client traffic, client certificates required.
	open bool
	// zones puts machines in zones (name → zone): each gets --zone, and every machine of the
	// bootstrap the whole list as --peer-zones. Machines not named are zones of their own.
	zones map[string]string
	// pprof gives every machine --pprof on a free address of its own (machine.pprof).
	pprof bool
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
		active: map[string]bool{}, search: opts.search, net: net, secure: !opts.open,
		watch: membership.Start(t, getJSON)}
	if a.secure {
		a.token, a.tokenFile = framework.AllianceToken(t, name)
	}
	var peers, zones []string
	for _, n := range slices.Sorted(maps.Keys(opts.zones)) {
		zones = append(zones, n+"="+opts.zones[n])
	}
	for _, n := range slices.Sorted(maps.Keys(sellersOf)) {
		extra := slices.Clone(opts.extra)
		var pprof string
		if opts.pprof {
			pprof = framework.FreeAddr(t)
			extra = append(extra, "--pprof", pprof)
		}
		m := a.newMachine(n, sellersOf[n], extra)
		m.pprof = pprof
		if z, ok := opts.zones[n]; ok {
			m.zone, m.peerZones = z, zones
		}
		peers = append(peers, n+"="+m.scheme+m.advertisedPeer())
	}
	a.peers = strings.Join(peers, ",")
	return a
}

// newMachine allocates a machine's addresses (and proxies, with a faultNet).
func (a *testAlliance) newMachine(name string, sellers, extra []string) *machine {
	m := &machine{name: name, listen: framework.FreeAddr(a.t), peer: framework.FreeAddr(a.t), client: framework.FreeAddr(a.t),
		sellers: sellers, dataDir: filepath.Join(a.dir, "var", name), extra: extra, scheme: "http://"}
	if a.secure {
		m.scheme = "https://"
		files := framework.IssueFiles(a.t, a.dir, name)
		m.tokenFile, m.tls = a.tokenFile, &files
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

// args is the machine's command line (without the binary): with --peers, or --join when it
// joins a running alliance. airlinecmd builds it, as it does alliancectl's.
func (a *testAlliance) args(m *machine) []string {
	cmd := airlinecmd.Machine{Name: m.name, Alliance: a.name, Listen: m.listen, Peer: m.peer, Client: m.client,
		Search: a.search, DataDir: m.dataDir, LogLevel: "info", Scheme: m.scheme, Zone: m.zone, PeerZones: m.peerZones,
		TokenFile: m.tokenFile, TLS: m.tls, Join: m.join, Extra: m.extra}
	if m.join == "" {
		cmd.Peers = a.peers
	}
	for _, s := range m.sellers {
		cmd.Sellers = append(cmd.Sellers, airlinecmd.Seller{Code: s, File: filepath.Join(a.dir, "data", s+".csv")})
	}
	if m.soapProxy != "" {
		cmd.Advertise = &airlinecmd.Addrs{Listen: m.soapProxy, Peer: m.peerProxy, Client: m.clientProxy}
	}
	return cmd.Args()
}

func (a *testAlliance) start(name string) {
	m := a.machines[name]
	args := a.args(m)
	for _, s := range m.sellers {
		a.active[s] = true
	}
	m.down = false
	m.proc = framework.StartProc(a.t, a.dir, name, "airline", args...)
	a.watch.Started(m.name, m.url(), m.proc.Log, m.proc.Running, false)
}

// add starts a new machine that joins the running alliance with --join.
func (a *testAlliance) add(name string, sellers ...string) {
	a.t.Helper()
	var join []string
	for _, n := range a.live() {
		join = append(join, a.machines[n].scheme+a.machines[n].advertisedClient())
	}
	a.newMachine(name, sellers, nil).join = strings.Join(join, ",")
	a.start(name)
}
