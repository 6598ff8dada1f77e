package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/Shopify/toxiproxy/v2/toxics"

	"flightalliance/internal/faultnet"
)

// The kinds of a process's proxies, in the order they are listed: in front of its HTTP port
// (SOAP and /status for a machine, REST for the search server), its etcd peer port and its
// etcd client port. The search server has only the first.
var proxyKinds = []string{"http", "peer", "client"}

// proxyDaemon runs every process's proxies in one process: per proxy a gate on the advertised
// address in front of a toxiproxy proxy that forwards to the process.
type proxyDaemon struct {
	dir string
	tox *faultnet.Proxies
	cut *cutter
	log *slog.Logger

	mu       sync.Mutex
	machines map[string][]*daemonProxy // by machine name, in proxyKinds order
}

type daemonProxy struct {
	kind  string
	gate  *gate
	proxy *toxiproxy.Proxy
}

func newProxyDaemon(dir string, log *slog.Logger) *proxyDaemon {
	d := &proxyDaemon{
		dir:      dir,
		tox:      faultnet.New(),
		log:      log,
		machines: map[string][]*daemonProxy{},
	}
	d.cut = newCutter(d.livePids, log)
	return d
}

// livePids reads state.json for the current pids of the named machines, so a machine restarted
// while partitioned stays partitioned.
func (d *proxyDaemon) livePids(names map[string]bool) []int {
	s, err := loadState(d.dir)
	if err != nil {
		d.log.Warn("cannot read the machines' pids", "err", err)
		return nil
	}
	return pidsOf(s, names)
}

// add starts the proxies of process name: one for each address spec advertises.
func (d *proxyDaemon) add(name string, spec proxySpec) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.machines[name]; ok {
		return fmt.Errorf("machine %s already has proxies", name)
	}
	listen := []string{spec.Advertise.Listen, spec.Advertise.Peer, spec.Advertise.Client}
	upstream := []string{spec.Upstream.Listen, spec.Upstream.Peer, spec.Upstream.Client}
	var started []*daemonProxy
	undo := func() {
		for _, p := range started {
			p.gate.ln.Close()
			p.proxy.Stop()
			_ = d.tox.Remove(p.proxy.Name)
		}
	}
	for i, kind := range proxyKinds {
		if listen[i] == "" {
			continue
		}
		if upstream[i] == "" {
			undo()
			return fmt.Errorf("machine %s: %s proxy: listen %q, but no upstream", name, kind, listen[i])
		}
		pname := name + "-" + kind
		proxy, err := d.tox.Start(pname, "127.0.0.1:0", upstream[i])
		if err != nil {
			undo()
			return fmt.Errorf("machine %s: %s proxy: %w", name, kind, err)
		}
		ln, err := net.Listen("tcp", listen[i])
		if err != nil {
			proxy.Stop()
			_ = d.tox.Remove(pname)
			undo()
			return fmt.Errorf("machine %s: %s proxy: %w", name, kind, err)
		}
		g := &gate{name: pname, ln: ln, target: proxy.Listen, cut: d.cut, log: d.log}
		go g.serve()
		started = append(started, &daemonProxy{kind: kind, gate: g, proxy: proxy})
	}
	if len(started) == 0 {
		return fmt.Errorf("machine %s: no address to proxy", name)
	}
	d.machines[name] = started
	d.log.Info("proxies started", "process", name, "http", listen[0], "peer", listen[1], "client", listen[2])
	return nil
}

// partition blackholes everything that reaches name's proxies and every connection name
// opens to any proxy. It is idempotent.
func (d *proxyDaemon) partition(name string) error {
	d.mu.Lock()
	ps, ok := d.machines[name]
	d.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", errNoProxies, name)
	}
	for _, p := range ps {
		if err := faultnet.Partition(p.proxy); err != nil {
			return err
		}
	}
	d.cut.partition(name)
	d.log.Info("partitioned", "machine", name)
	return nil
}

// heal removes every toxic of every proxy and ends every partition; it returns the machines
// that were partitioned.
func (d *proxyDaemon) heal(ctx context.Context) []string {
	var was []string
	for _, m := range d.status() {
		if m.Partitioned {
			was = append(was, m.Name)
		}
	}
	for _, p := range d.tox.All() {
		faultnet.Heal(ctx, p)
	}
	closed := d.cut.heal()
	d.log.Info("healed", "machines", was, "cut_connections_closed", closed)
	return was
}

// status lists every machine's proxies, sorted by machine name.
func (d *proxyDaemon) status() []machineNet {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]machineNet, 0, len(d.machines))
	for _, name := range sortedKeys(d.machines) {
		m := machineNet{Name: name}
		for _, p := range d.machines[name] {
			pn := proxyNet{Name: p.proxy.Name, Kind: p.kind, Listen: p.gate.ln.Addr().String(), Upstream: p.proxy.Upstream,
				Toxics: []string{}}
			for _, t := range p.proxy.Toxics.GetToxicArray() {
				if w, ok := t.(*toxics.ToxicWrapper); ok {
					pn.Toxics = append(pn.Toxics, w.Name)
				}
			}
			m.Proxies = append(m.Proxies, pn)
		}
		m.Partitioned = d.cut.partitioned(name)
		out = append(out, m)
	}
	return out
}

// close stops every gate and proxy.
func (d *proxyDaemon) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, ps := range d.machines {
		for _, p := range ps {
			p.gate.ln.Close()
		}
	}
	d.cut.heal()
	_ = d.tox.Close()
}

// errNoProxies says a machine has no proxies (it was started without --proxies, or is unknown).
var errNoProxies = errors.New("no proxies for machine")
