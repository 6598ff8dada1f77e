package search

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeMachine is an airline server as the console sees it: GET /status and GET /healthz.
type fakeMachine struct {
	name       string
	srv        *httptest.Server
	statusHits atomic.Int64
	mu         sync.Mutex
	doc        any  // the /status answer
	hang       bool // /healthz and /status answer only when the caller gives up, like a paused process
}

func startFakeMachine(t *testing.T, name string) *fakeMachine {
	t.Helper()
	m := &fakeMachine{name: name}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		m.statusHits.Add(1)
		m.mu.Lock()
		doc, hang := m.doc, m.hang
		m.mu.Unlock()
		if hang {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		hang := m.hang
		m.mu.Unlock()
		if hang {
			<-r.Context().Done()
			return
		}
		_, _ = w.Write([]byte(`{"status":"ok","name":"` + name + `","registered":true}`))
	})
	m.srv = httptest.NewServer(mux)
	t.Cleanup(m.srv.Close)
	return m
}

func (m *fakeMachine) URL() string { return m.srv.URL }
func (m *fakeMachine) URI() string { return m.srv.URL + "/Services/SellerService" }

func (m *fakeMachine) set(doc any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.doc = doc
}

func (m *fakeMachine) pause() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.hang = true
}

// kill closes the machine's listener: connections are refused from now on.
func (m *fakeMachine) kill() {
	m.srv.CloseClientConnections()
	m.srv.Listener.Close()
}

// Documents shaped as the airline server's GET /status (alliance/status.go): snake_case fields,
// and the etcd member under coord.Status's Go field names.
type fakeEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
	Leaving   bool     `json:"leaving,omitempty"`
	Brings    []string `json:"brings,omitempty"`
}

type fakeMember struct {
	Name       string
	ID         uint64
	PeerURLs   []string
	ClientURLs []string
	IsLearner  bool
}

type fakeStatus struct {
	Name     string      `json:"name"`
	Alliance string      `json:"alliance"`
	URL      string      `json:"url"`
	Delegate string      `json:"delegate"`
	Acting   bool        `json:"acting_delegate"`
	Self     fakeEntry   `json:"self"`
	Serving  []string    `json:"serving"`
	Joining  bool        `json:"joining"`
	Leaving  bool        `json:"leaving"`
	View     []fakeEntry `json:"view"`
	Round    struct {
		ID         int64     `json:"id"`
		Phase      string    `json:"phase"`
		Since      time.Time `json:"since"`
		LastResult string    `json:"last_result,omitempty"`
	} `json:"round"`
	Member *struct {
		Name      string
		ID        uint64
		IsLeader  bool
		IsLearner bool
		Leader    string
		LeaderID  uint64
		HasQuorum bool
		Members   []fakeMember
	} `json:"member,omitempty"`
}

// statusOf is machine self's /status in alliance star, whose view is entries and whose etcd
// members are members (the first of them leads).
func statusOf(self string, entries []fakeEntry, members ...fakeMember) fakeStatus {
	var st fakeStatus
	st.Name, st.Alliance = self, "star"
	st.View = entries
	if len(entries) > 0 {
		st.Delegate = entries[0].Name
	}
	st.Round.ID, st.Round.Phase, st.Round.LastResult = 7, "idle", "committed"
	if len(members) > 0 {
		st.Member = &struct {
			Name      string
			ID        uint64
			IsLeader  bool
			IsLearner bool
			Leader    string
			LeaderID  uint64
			HasQuorum bool
			Members   []fakeMember
		}{Name: self, Leader: members[0].Name, HasQuorum: true, Members: members}
	}
	return st
}

func entry(m *fakeMachine, primaries, backups []string) fakeEntry {
	return fakeEntry{Name: m.name, URL: m.URL(), Primaries: primaries, Backups: backups}
}

func voters(names ...string) []fakeMember {
	var out []fakeMember
	for _, n := range names {
		out = append(out, fakeMember{Name: n})
	}
	return out
}

// starOf3 starts m1, m2 and m3 of alliance star, each answering the same picture: LY, UA and
// BA placed round the three, a backup each on the next machine.
func starOf3(t *testing.T) (m1, m2, m3 *fakeMachine, doc func(self string) fakeStatus) {
	m1, m2, m3 = startFakeMachine(t, "m1"), startFakeMachine(t, "m2"), startFakeMachine(t, "m3")
	view := []fakeEntry{
		entry(m1, []string{"LY"}, []string{"BA"}),
		entry(m2, []string{"UA"}, []string{"LY"}),
		entry(m3, []string{"BA"}, []string{"UA"}),
	}
	doc = func(self string) fakeStatus { return statusOf(self, view, voters("m1", "m2", "m3")...) }
	for _, m := range []*fakeMachine{m1, m2, m3} {
		m.set(doc(m.name))
	}
	return m1, m2, m3, doc
}

func registerWith(t *testing.T, ts *testServer, name, uri string, alternates ...string) {
	t.Helper()
	body, _ := json.Marshal(RegisterBody{URI: uri, Alternates: alternates})
	if code, b := do(t, http.MethodPut, ts.URL+"/Services/FlightsSearchReg/Register/"+name, string(body)); code != http.StatusOK {
		t.Fatalf("register %s: %d %s", name, code, b)
	}
}

func livePicture(t *testing.T, ts *testServer) LivePicture {
	t.Helper()
	code, b := do(t, http.MethodGet, ts.URL+alliancesPath, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", alliancesPath, code, b)
	}
	var p LivePicture
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatalf("GET %s: %v in %s", alliancesPath, err, b)
	}
	return p
}

// waitPicture polls the live picture until cond holds of alliance name (past the cache).
func waitPicture(t *testing.T, ts *testServer, name, what string, cond func(AllianceLive) bool) AllianceLive {
	t.Helper()
	var last AllianceLive
	eventually(t, 5*time.Second, what, func() bool {
		for _, a := range livePicture(t, ts).Alliances {
			if a.Name == name {
				last = a
				return cond(a)
			}
		}
		return false
	})
	return last
}

func machineOf(a AllianceLive, name string) (LiveMachine, bool) {
	for _, m := range a.Machines {
		if m.Name == name {
			return m, true
		}
	}
	return LiveMachine{}, false
}

func stateOf(a AllianceLive, name string) string {
	m, ok := machineOf(a, name)
	if !ok {
		return "absent"
	}
	return m.State
}

func TestLivePictureShowsMachinesSellersAndRoles(t *testing.T) {
	m1, m2, _, _ := starOf3(t)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI(), m2.URI())

	p := livePicture(t, ts)
	if len(p.Alliances) != 1 || p.At.IsZero() {
		t.Fatalf("picture %+v, want one alliance and its time", p)
	}
	a := p.Alliances[0]
	if a.Name != "star" || a.Source != "m1" || a.Error != "" || a.Delegate != "m1" {
		t.Errorf("alliance %q from %q (error %q), delegate %q; want star from m1, delegate m1", a.Name, a.Source, a.Error, a.Delegate)
	}
	if a.Registration.URI != m1.URI() || !slices.Equal(a.Registration.Alternates, []string{m2.URI()}) || a.Registration.Stale {
		t.Errorf("registration %+v", a.Registration)
	}
	if !slices.Equal(a.Sellers, []string{"BA", "LY", "UA"}) {
		t.Errorf("sellers %v", a.Sellers)
	}
	if a.Round == nil || a.Round.ID != 7 || a.Round.Phase != "idle" || a.Round.LastResult != "committed" {
		t.Errorf("round %+v", a.Round)
	}
	if a.Etcd == nil || !a.Etcd.Quorum || a.Etcd.Leader != "m1" || !slices.Equal(a.Etcd.Voters, []string{"m1", "m2", "m3"}) || len(a.Etcd.Learners) != 0 {
		t.Errorf("etcd %+v", a.Etcd)
	}
	want := []LiveMachine{
		{Name: "m1", State: StateUp, Delegate: true, InView: true, Primaries: []string{"LY"}, Backups: []string{"BA"}, Etcd: "voter", EtcdLeader: true},
		{Name: "m2", State: StateUp, InView: true, Primaries: []string{"UA"}, Backups: []string{"LY"}, Etcd: "voter"},
		{Name: "m3", State: StateUp, InView: true, Primaries: []string{"BA"}, Backups: []string{"UA"}, Etcd: "voter"},
	}
	if len(a.Machines) != len(want) {
		t.Fatalf("machines %+v", a.Machines)
	}
	for i, m := range a.Machines {
		w := want[i]
		w.URL = m.URL
		if m.URL == "" || !equalMachine(m, w) {
			t.Errorf("machine %d: %+v, want %+v", i, m, w)
		}
	}
}

func equalMachine(a, b LiveMachine) bool {
	return a.Name == b.Name && a.URL == b.URL && a.State == b.State && a.Delegate == b.Delegate &&
		a.InView == b.InView && slices.Equal(a.Primaries, b.Primaries) && slices.Equal(a.Backups, b.Backups) &&
		a.Etcd == b.Etcd && a.EtcdLeader == b.EtcdLeader && a.Error == b.Error
}

func TestLivePictureMarksAKilledMachineDownAndDropsItOnceRemoved(t *testing.T) {
	m1, m2, m3, doc := starOf3(t)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI(), m2.URI())
	waitPicture(t, ts, "star", "m3 up", func(a AllianceLive) bool { return stateOf(a, "m3") == StateUp })

	m3.kill() // the view still lists it: its lease has not expired
	a := waitPicture(t, ts, "star", "m3 down", func(a AllianceLive) bool { return stateOf(a, "m3") == StateDown })
	if m, _ := machineOf(a, "m3"); !strings.Contains(m.Error, "refused") || !m.InView {
		t.Errorf("killed m3: %+v, want it in the view, its error saying the connection was refused", m)
	}

	// Its lease expired: out of the view, still an etcd member. Shown down at the address it had.
	gone := doc("m1")
	gone.View = gone.View[:2]
	m1.set(gone)
	a = waitPicture(t, ts, "star", "m3 out of the view", func(a AllianceLive) bool {
		m, ok := machineOf(a, "m3")
		return ok && !m.InView
	})
	if m, _ := machineOf(a, "m3"); m.State != StateDown || m.URL != m3.URL() || m.Etcd != "voter" || len(m.Primaries) != 0 {
		t.Errorf("m3 out of the view: %+v, want down at %s, an etcd voter holding nothing", m, m3.URL())
	}

	// Removed from etcd too: it leaves the picture.
	gone.Member.Members = gone.Member.Members[:2]
	m1.set(gone)
	a = waitPicture(t, ts, "star", "m3 gone", func(a AllianceLive) bool { return stateOf(a, "m3") == "absent" })
	if len(a.Machines) != 2 {
		t.Errorf("machines %+v, want m1 and m2", a.Machines)
	}
}

func TestLivePictureMarksAPausedMachineUnreachable(t *testing.T) {
	m1, m2, m3, _ := starOf3(t)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI(), m2.URI())
	m3.pause()
	start := time.Now()
	a := waitPicture(t, ts, "star", "m3 unreachable", func(a AllianceLive) bool { return stateOf(a, "m3") == StateUnreachable })
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a paused machine took %s to show unreachable", took)
	}
	if m, _ := machineOf(a, "m3"); !strings.Contains(m.Error, "no answer") {
		t.Errorf("paused m3: error %q", m.Error)
	}
	if stateOf(a, "m1") != StateUp || stateOf(a, "m2") != StateUp {
		t.Errorf("machines %+v, want m1 and m2 up", a.Machines)
	}
}

func TestLivePictureFallsBackToAnAlternateWhenTheDelegateIsDown(t *testing.T) {
	m1, m2, _, _ := starOf3(t)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI(), m2.URI())
	m1.kill()
	a := waitPicture(t, ts, "star", "the picture from m2", func(a AllianceLive) bool { return a.Source == "m2" })
	if a.Error != "" || stateOf(a, "m1") != StateDown || stateOf(a, "m2") != StateUp {
		t.Errorf("from m2: error %q, machines %+v; want m1 down, m2 up", a.Error, a.Machines)
	}
}

func TestLivePictureWithNoMachineAnsweringKeepsTheMachinesSeenDown(t *testing.T) {
	m1, m2, m3, _ := starOf3(t)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI(), m2.URI())
	waitPicture(t, ts, "star", "three machines", func(a AllianceLive) bool { return len(a.Machines) == 3 })
	for _, m := range []*fakeMachine{m1, m2, m3} {
		m.kill()
	}
	a := waitPicture(t, ts, "star", "every machine down", func(a AllianceLive) bool {
		return len(a.Machines) == 3 && stateOf(a, "m1") == StateDown && stateOf(a, "m2") == StateDown && stateOf(a, "m3") == StateDown
	})
	if a.Source != "" || !strings.Contains(a.Error, "no machine of star answered /status") || a.Round != nil || a.Etcd != nil {
		t.Errorf("source %q, error %q, round %+v, etcd %+v; want no source and an error naming the alliance", a.Source, a.Error, a.Round, a.Etcd)
	}
}

func TestLivePictureRefusesAMachineOfAnotherAlliance(t *testing.T) {
	m1, m2, _, doc := starOf3(t)
	other := doc("m1")
	other.Alliance = "sky"
	m1.set(other)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI(), m2.URI())
	a := livePicture(t, ts).Alliances[0]
	if a.Source != "m2" {
		t.Errorf("source %q, want m2 (m1 answers for sky)", a.Source)
	}
	m2.set(other)
	a = waitPicture(t, ts, "star", "no source", func(a AllianceLive) bool { return a.Source == "" })
	if !strings.Contains(a.Error, `alliance "sky"`) {
		t.Errorf("error %q, want it to say the machines belong to sky", a.Error)
	}
}

func TestLivePictureShowsAStaleRegistrationAndEveryAlliance(t *testing.T) {
	now := time.Now()
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	m1, _, _, _ := starOf3(t)
	ts := startSearch(t, Config{RegistrationTTL: time.Minute, Now: func() time.Time { return *clock.Load() }})
	registerWith(t, ts, "star", m1.URI())
	registerWith(t, ts, "sky", "http://127.0.0.1:1/Services/SellerService")
	later := now.Add(2 * time.Minute)
	clock.Store(&later)
	p := livePicture(t, ts)
	if len(p.Alliances) != 2 || p.Alliances[0].Name != "sky" || p.Alliances[1].Name != "star" {
		t.Fatalf("alliances %+v, want sky and star", p.Alliances)
	}
	if sky := p.Alliances[0]; !sky.Registration.Stale || sky.Error == "" || len(sky.Machines) != 0 || sky.Sellers == nil || sky.Machines == nil {
		t.Errorf("sky: %+v, want stale, an error, no machine (and empty lists, not null)", sky)
	}
	if star := p.Alliances[1]; !star.Registration.Stale || star.Source != "m1" {
		t.Errorf("star: %+v, want stale and still read from m1", star)
	}
}

func TestLivePicturePagesPollingTogetherShareARefresh(t *testing.T) {
	m1, _, _, _ := starOf3(t)
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI())
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { livePicture(t, ts) })
	}
	wg.Wait()
	if n := m1.statusHits.Load(); n != 1 {
		t.Errorf("5 pages polling at once read the delegate's /status %d times, want once", n)
	}
	if code, b := do(t, http.MethodGet, ts.URL+alliancesPath+"?x=1", ""); code != http.StatusBadRequest || !strings.Contains(string(b), "query") {
		t.Errorf("with a query string: %d %s, want 400", code, b)
	}
}

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
			a := assemblePicture(allianceInputs{reg: Registration{Name: "star"}, status: c.status, machines: machines, probes: c.probes})
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
	a := assemblePicture(allianceInputs{reg: Registration{Name: "star"}, status: st, machines: trackedMachines(st, nil)})
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

func TestLivePictureRefusesAStatusListingTooManyMachines(t *testing.T) {
	m1 := startFakeMachine(t, "m1")
	var view []fakeEntry
	for i := range liveMaxMachines + 1 {
		view = append(view, fakeEntry{Name: fmt.Sprintf("x%03d", i), URL: "http://127.0.0.1:1"})
	}
	m1.set(statusOf("m1", view))
	ts := startSearch(t, Config{})
	registerWith(t, ts, "star", m1.URI())
	a := livePicture(t, ts).Alliances[0]
	if a.Source != "" || len(a.Machines) != 0 || !strings.Contains(a.Error, "more than 256 machines") {
		t.Errorf("source %q, %d machines, error %q; want the status refused", a.Source, len(a.Machines), a.Error)
	}
}
