package console

import (
	"slices"
	"testing"

	"flightalliance/search/registry"
)

// TestAssemblePictureStates checks the state assemblePicture gives each machine of a status.
func TestAssemblePictureStates(t *testing.T) {
	up := probeResult{OK: true}
	cases := []struct {
		name   string
		status *machineStatus
		known  map[string]string
		probes map[string]probeResult
		want   map[string]string // machine → state; absent machines must not appear
	}{{
		name: "leaving and joining machines answer",
		status: &machineStatus{Name: "a", Alliance: "star", Delegate: "a", View: []viewEntry{
			{Name: "a", URL: "http://a"}, {Name: "b", URL: "http://b", Leaving: true}, {Name: "c", URL: "http://c", Brings: []string{"KL"}},
		}},
		probes: map[string]probeResult{"a": up, "b": up, "c": up},
		want:   map[string]string{"a": StateUp, "b": StateLeaving, "c": StateJoining},
	}, {
		name:   "the source says it is leaving",
		status: &machineStatus{Name: "a", Alliance: "star", Leaving: true, View: []viewEntry{{Name: "a", URL: "http://a"}}},
		probes: map[string]probeResult{"a": up},
		want:   map[string]string{"a": StateLeaving},
	}, {
		name: "an etcd member out of the view: joining when it answers or was never seen, down when it does not answer",
		status: &machineStatus{Name: "a", Alliance: "star", View: []viewEntry{{Name: "a", URL: "http://a"}},
			Member: memberOf("a", "b", "c", "d", "")},
		known:  map[string]string{"b": "http://b", "c": "http://c", "e": "http://e"},
		probes: map[string]probeResult{"a": up, "b": up, "c": {Err: "refused"}},
		want:   map[string]string{"a": StateUp, "b": StateJoining, "c": StateDown, "d": StateJoining},
	}, {
		name:   "a leaving machine that no longer answers is down",
		status: &machineStatus{Name: "a", Alliance: "star", View: []viewEntry{{Name: "a", URL: "http://a"}, {Name: "b", URL: "http://b", Leaving: true}}},
		probes: map[string]probeResult{"a": up, "b": {TimedOut: true, Err: "no answer"}},
		want:   map[string]string{"a": StateUp, "b": StateUnreachable},
	}, {
		name:   "a machine without an address is down",
		status: &machineStatus{Name: "a", Alliance: "star", View: []viewEntry{{Name: "a", URL: "http://a"}, {Name: "b"}}},
		probes: map[string]probeResult{"a": up},
		want:   map[string]string{"a": StateUp, "b": StateDown},
	}, {
		name:   "without a status, the machines known",
		known:  map[string]string{"a": "http://a", "b": "http://b"},
		probes: map[string]probeResult{"a": up, "b": {Err: "refused"}},
		want:   map[string]string{"a": StateJoining, "b": StateDown},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			machines := trackedMachines(c.status, c.known)
			a := assemblePicture(allianceInputs{reg: registry.Registration{Name: "star"}, status: c.status, machines: machines, probes: c.probes})
			got := map[string]string{}
			for _, m := range a.Machines {
				got[m.Name] = m.State
				if (m.State == StateDown || m.State == StateUnreachable) != (m.Error != "") {
					t.Errorf("%s is %s with error %q", m.Name, m.State, m.Error)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("machines %v, want %v", got, c.want)
			}
			for n, st := range c.want {
				if got[n] != st {
					t.Errorf("%s is %q, want %q (all: %v)", n, got[n], st, got)
				}
			}
		})
	}
}

func memberOf(names ...string) *memberStatus {
	m := &memberStatus{Leader: names[0], HasQuorum: true}
	for i, n := range names {
		m.Members = append(m.Members, struct {
			Name      string
			IsLearner bool
		}{Name: n, IsLearner: i >= 3})
	}
	return m
}

func TestAssemblePictureEtcdVotersAndLearners(t *testing.T) {
	st := &machineStatus{Name: "a", Alliance: "star", View: []viewEntry{{Name: "a", URL: "http://a"}}, Member: memberOf("a", "b", "c", "d", "")}
	a := assemblePicture(allianceInputs{reg: registry.Registration{Name: "star"}, status: st, machines: trackedMachines(st, nil)})
	if !slices.Equal(a.Etcd.Voters, []string{"a", "b", "c"}) || !slices.Equal(a.Etcd.Learners, []string{"d", "(not started)"}) {
		t.Errorf("etcd %+v", a.Etcd)
	}
	if m, _ := machineOf(a, "d"); m.Etcd != "learner" {
		t.Errorf("d: %+v, want a learner", m)
	}
	if m, _ := machineOf(a, "a"); !m.EtcdLeader || m.Etcd != "voter" {
		t.Errorf("a: %+v, want the voter that leads", m)
	}
}

// TestAssemblePictureZonesAndReplicas: the picture carries K and every machine's zone (its name
// when its entry has none), and a seller held three times shows on all three holders.
func TestAssemblePictureZonesAndReplicas(t *testing.T) {
	st := &machineStatus{Name: "a", Alliance: "star", Delegate: "a", Replicas: 3, View: []viewEntry{
		{Name: "a", URL: "http://a", Zone: "eu", Primaries: []string{"LY"}},
		{Name: "b", URL: "http://b", Zone: "us", Backups: []string{"LY"}},
		{Name: "c", URL: "http://c", Backups: []string{"LY"}},
	}}
	up := probeResult{OK: true}
	a := assemblePicture(allianceInputs{reg: registry.Registration{Name: "star"}, status: st, machines: trackedMachines(st, nil),
		probes: map[string]probeResult{"a": up, "b": up, "c": up}})
	if a.Replicas != 3 {
		t.Errorf("replicas %d, want 3", a.Replicas)
	}
	zones, holders := map[string]string{}, 0
	for _, m := range a.Machines {
		zones[m.Name] = m.Zone
		if slices.Contains(m.Primaries, "LY") || slices.Contains(m.Backups, "LY") {
			holders++
		}
	}
	if zones["a"] != "eu" || zones["b"] != "us" || zones["c"] != "c" || holders != 3 {
		t.Errorf("zones %v, LY on %d machines; want eu, us, c and 3", zones, holders)
	}
}

func machineOf(a AllianceLive, name string) (LiveMachine, bool) {
	for _, m := range a.Machines {
		if m.Name == name {
			return m, true
		}
	}
	return LiveMachine{}, false
}
