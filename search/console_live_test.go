package search

import (
	"flightalliance/search/console"

	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

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
	if code, b := do(t, http.MethodGet, ts.URL+console.AlliancesPath+"?x=1", ""); code != http.StatusBadRequest || !strings.Contains(string(b), "query") {
		t.Errorf("with a query string: %d %s, want 400", code, b)
	}
}

func TestLivePictureRefusesAStatusListingTooManyMachines(t *testing.T) {
	m1 := startFakeMachine(t, "m1")
	var view []fakeEntry
	for i := range console.MaxMachines + 1 {
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
