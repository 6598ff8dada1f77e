package integration

import (
	"fmt"
	"maps"
	"slices"
	"syscall"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework/membership"
)

// kill sends SIGKILL (a paused machine dies too, and is no longer paused).
func (a *testAlliance) kill(name string) {
	a.watch.Set(name, membership.Faulted)
	a.machines[name].down = true
	a.machines[name].proc.Kill()
	a.machines[name].paused = false
}

// restart runs the machine again with the same command line.
func (a *testAlliance) restart(name string) {
	m := a.machines[name]
	a.watch.Set(name, membership.Faulted)
	m.down = true
	m.proc.Kill()
	m.down, m.paused = false, false
	m.proc.Start(a.t)
	a.watch.Started(m.name, m.url(), m.proc.Log, m.proc.Running, true)
}

// leave sends SIGTERM: the machine hands its sellers over and exits.
func (a *testAlliance) leave(name string) {
	a.watch.Set(name, membership.Faulted)
	a.machines[name].down = true
	a.machines[name].proc.Signal(syscall.SIGTERM)
}

// pause stops a machine with SIGSTOP (a GC pause or a stuck VM in miniature); resume continues it.
func (a *testAlliance) pause(name string) {
	a.watch.Set(name, membership.Paused)
	a.machines[name].paused = true
	a.machines[name].proc.Signal(syscall.SIGSTOP)
}

func (a *testAlliance) resume(name string) {
	a.machines[name].proc.Signal(syscall.SIGCONT)
	a.machines[name].paused = false
	a.watch.Set(name, membership.Up)
}

// partition cuts the machine off: nothing reaches it through its proxies. heal undoes it.
func (a *testAlliance) partition(name string) { a.cutOff(name, "soap", "peer", "client") }

// cutEtcd cuts a machine's etcd member off from the others (its peer and client proxies hold
// every byte), but not its SOAP port: its session ends, but the delegate still reaches it.
func (a *testAlliance) cutEtcd(name string) { a.cutOff(name, "peer", "client") }

// cutOff blackholes the named proxies of a machine (soap, peer, client).
func (a *testAlliance) cutOff(name string, proxies ...string) {
	a.watch.Set(name, membership.Faulted)
	a.machines[name].cut = true
	for _, p := range proxies {
		a.net.blackhole(name + "-" + p)
	}
}

func (a *testAlliance) heal(name string) {
	for _, p := range []string{name + "-soap", name + "-peer", name + "-client"} {
		a.net.restore(p)
	}
	a.machines[name].cut = false
	a.watch.Set(name, membership.Up)
}

// crashed names a machine whose process exited without the test stopping it.
func (a *testAlliance) crashed() error {
	for _, n := range a.order {
		if m := a.machines[n]; !m.down && !m.proc.Running() {
			return fmt.Errorf("machine %s exited on its own (see its log)", n)
		}
	}
	return nil
}

// live lists the machines whose processes run and are not paused.
func (a *testAlliance) live() []string {
	var out []string
	for _, n := range a.order {
		if p := a.machines[n].proc; p != nil && p.Running() && !a.machines[n].paused && !a.machines[n].cut {
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
