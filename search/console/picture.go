package console

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"flightalliance/search/registry"
)

// The states of a machine in the console's live picture.
const (
	StateUp          = "up"          // in the alliance's view and answering
	StateDown        = "down"        // refuses connections or answers its health check with an error
	StateUnreachable = "unreachable" // no answer within the probe's deadline (paused, cut off)
	StateLeaving     = "leaving"     // answering, handing its sellers over before it exits
	StateJoining     = "joining"     // answering, not yet placed (no entry in the view, or still bringing its sellers)
)

// LivePicture is the answer of GET /Services/FlightsSearch/alliances: every known alliance as
// its machines and the search server see it now, sorted by name.
type LivePicture struct {
	At        time.Time      `json:"at"`
	Alliances []AllianceLive `json:"alliances"`
}

// AllianceLive is one alliance: its registration with this server and the picture read from
// the /status of its delegate (or, when the delegate does not answer, of the first alternate
// that does), with every machine's reachability probed directly.
type AllianceLive struct {
	Name         string                `json:"name"`
	Registration registry.Registration `json:"registration"`
	// Source names the machine whose /status the picture is from; Error says why no machine's
	// /status could be read (then Delegate, Round and Etcd are unknown and Machines are the
	// ones seen before, probed).
	Source   string        `json:"source,omitempty"`
	Error    string        `json:"error,omitempty"`
	Delegate string        `json:"delegate"`
	Replicas int           `json:"replicas,omitempty"` // copies of every seller (0: unknown)
	Round    *LiveRound    `json:"round,omitempty"`
	Etcd     *LiveEtcd     `json:"etcd,omitempty"`
	Sellers  []string      `json:"sellers"`  // every seller some machine holds, sorted
	Machines []LiveMachine `json:"machines"` // sorted by name
}

// LiveRound is the replication round the source machine is in.
type LiveRound struct {
	ID         int64  `json:"id"`
	Phase      string `json:"phase"` // "idle" between rounds
	Since      string `json:"since,omitempty"`
	LastResult string `json:"last_result,omitempty"`
}

// LiveEtcd is the alliance's etcd cluster as the source machine's member sees it.
type LiveEtcd struct {
	Quorum   bool     `json:"quorum"`
	Leader   string   `json:"leader,omitempty"`
	Voters   []string `json:"voters"`
	Learners []string `json:"learners"`
}

// LiveMachine is one machine: in the alliance's view, an etcd member, or seen before and not
// yet removed.
type LiveMachine struct {
	Name       string   `json:"name"`
	URL        string   `json:"url,omitempty"`
	Zone       string   `json:"zone,omitempty"` // its failure domain, as its view entry says
	State      string   `json:"state"`          // one of the State constants
	Delegate   bool     `json:"delegate"`
	InView     bool     `json:"in_view"` // it has an entry in the alliance's view
	Primaries  []string `json:"primaries"`
	Backups    []string `json:"backups"`
	Etcd       string   `json:"etcd,omitempty"` // "voter" or "learner"; empty when no etcd member carries its name
	EtcdLeader bool     `json:"etcd_leader,omitempty"`
	Error      string   `json:"error,omitempty"` // why it is down or unreachable
}

// machineStatus is the part of an airline server's GET /status the console reads.
type machineStatus struct {
	Name     string        `json:"name"`
	Alliance string        `json:"alliance"`
	Delegate string        `json:"delegate"`
	Replicas int           `json:"replicas"`
	Joining  bool          `json:"joining"`
	Leaving  bool          `json:"leaving"`
	View     []viewEntry   `json:"view"`
	Round    *LiveRound    `json:"round"`
	Member   *memberStatus `json:"member"`
}

type viewEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Zone      string   `json:"zone"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
	Leaving   bool     `json:"leaving"`
	Brings    []string `json:"brings"` // set while the machine is joining
}

// memberStatus is coord.Status as /status encodes it: under its Go field names.
type memberStatus struct {
	Leader    string
	HasQuorum bool
	Members   []struct {
		Name      string
		IsLearner bool
	}
}

// probeResult is what a machine's GET /healthz gave.
type probeResult struct {
	OK       bool
	TimedOut bool
	Err      string
}

// allianceInputs is what one refresh learned about an alliance: the values the picture is
// assembled from, with no I/O left to do.
type allianceInputs struct {
	reg       registry.Registration
	status    *machineStatus // nil: no machine answered /status
	statusErr string
	machines  map[string]string      // machine → URL: trackedMachines(status, machines known before)
	probes    map[string]probeResult // by machine name
}

// trackedMachines returns the machines a refresh shows, probes and keeps knowing, with their URLs:
// those of the view, and those known from before that are still etcd members. A machine that
// left, or was removed from etcd as dead, is in neither and leaves the picture. Without a
// /status nothing is forgotten: every machine known is shown and probed.
func trackedMachines(st *machineStatus, known map[string]string) map[string]string {
	if st == nil {
		return maps.Clone(known)
	}
	out := map[string]string{}
	for _, e := range st.View {
		out[e.Name] = e.URL
	}
	if st.Member != nil {
		for _, mb := range st.Member.Members {
			if _, ok := out[mb.Name]; !ok && known[mb.Name] != "" {
				out[mb.Name] = known[mb.Name]
			}
		}
	}
	return out
}

// assemblePicture builds an alliance's picture from what a refresh learned.
func assemblePicture(in allianceInputs) AllianceLive {
	out := AllianceLive{Name: in.reg.Name, Registration: in.reg, Error: in.statusErr,
		Sellers: []string{}, Machines: []LiveMachine{}}
	machines := map[string]*LiveMachine{}
	add := func(name, url string) *LiveMachine {
		m, ok := machines[name]
		if !ok {
			m = &LiveMachine{Name: name, URL: url, Primaries: []string{}, Backups: []string{}}
			machines[name] = m
		}
		return m
	}
	leaving, joining := map[string]bool{}, map[string]bool{}
	if st := in.status; st != nil {
		out.Source, out.Delegate, out.Round, out.Replicas = st.Name, st.Delegate, st.Round, st.Replicas
		for _, e := range st.View {
			m := add(e.Name, e.URL)
			m.InView = true
			m.Zone = cmp.Or(e.Zone, e.Name)
			m.Primaries = liveSorted(e.Primaries)
			m.Backups = liveSorted(e.Backups)
			leaving[e.Name] = e.Leaving
			joining[e.Name] = len(e.Brings) > 0
		}
		leaving[st.Name] = leaving[st.Name] || st.Leaving
		joining[st.Name] = joining[st.Name] || st.Joining
		if mb := st.Member; mb != nil {
			out.Etcd = &LiveEtcd{Quorum: mb.HasQuorum, Leader: mb.Leader, Voters: []string{}, Learners: []string{}}
			for _, member := range mb.Members {
				name, role := cmp.Or(member.Name, "(not started)"), "voter"
				if member.IsLearner {
					role = "learner"
					out.Etcd.Learners = append(out.Etcd.Learners, name)
				} else {
					out.Etcd.Voters = append(out.Etcd.Voters, name)
				}
				if member.Name == "" {
					continue // added to etcd, not yet started: no machine to show
				}
				m := add(member.Name, in.machines[member.Name])
				m.Etcd = role
				m.EtcdLeader = member.Name == mb.Leader
			}
		}
	} else {
		for name, url := range in.machines {
			add(name, url)
		}
	}
	sellers := map[string]bool{}
	for _, m := range machines {
		m.Delegate = m.Name == out.Delegate && out.Delegate != ""
		m.State, m.Error = liveState(m, in.probes[m.Name], leaving[m.Name], joining[m.Name])
		for _, s := range append(slices.Clone(m.Primaries), m.Backups...) {
			sellers[s] = true
		}
	}
	out.Sellers = liveSorted(slices.Collect(maps.Keys(sellers)))
	for _, name := range slices.Sorted(maps.Keys(machines)) {
		out.Machines = append(out.Machines, *machines[name])
	}
	return out
}

// liveState says what a user should read about a machine. Reachability comes first: a
// machine that does not answer is down or unreachable whatever the view still says of it (the
// view keeps a dead machine until its lease expires).
func liveState(m *LiveMachine, p probeResult, leaving, joining bool) (state, why string) {
	switch {
	case m.URL == "" && m.Etcd != "":
		// An etcd member this server never saw in a view: one joining (a machine that died
		// before this server first looked is removed from etcd within the alliance's grace).
		return StateJoining, ""
	case m.URL == "":
		return StateDown, "no address of it is known"
	case !p.OK && p.TimedOut:
		return StateUnreachable, cmp.Or(p.Err, "no answer")
	case !p.OK:
		return StateDown, cmp.Or(p.Err, "not probed")
	case leaving:
		return StateLeaving, ""
	case joining || !m.InView:
		return StateJoining, ""
	}
	return StateUp, ""
}

func liveSorted(s []string) []string {
	out := slices.Clone(s)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return out
}
