package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

func sampleState(dir string) *State {
	return &State{
		Dir: dir, Bin: "/opt/bin", Search: "http://127.0.0.1:8080",
		Data:      DataSpec{Dir: dir + "/data", From: "2026-12-01", Days: 7, PerDay: 20, Seed: 1},
		Alliances: []Alliance{{Name: "star", Peers: "m1=http://127.0.0.1:2381"}},
		Procs: []Proc{
			{Name: "search", Kind: kindSearch, Pid: 10, Args: []string{"/opt/bin/search", "--listen", "127.0.0.1:8080"},
				Ports: Ports{Listen: "127.0.0.1:8080"}, Log: dir + "/logs/search.log"},
			{Name: "m1", Kind: kindAirline, Alliance: "star", Sellers: []string{"LY", "UA"}, Pid: 11,
				Args:  []string{"/opt/bin/airline", "--name", "m1"},
				Ports: Ports{Listen: "127.0.0.1:8101", Peer: "127.0.0.1:2381", Client: "127.0.0.1:2391"}, Log: dir + "/logs/m1.log"},
		},
		Query:    Query{Src: "TLV", Dst: "JFK", Date: "2026-12-01"},
		LogLevel: "info",
		Extra:    []string{"--session-ttl=5s"},
		Created:  time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func TestStateRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := sampleState(dir)
	if err := saveState(want); err != nil {
		t.Fatal(err)
	}
	got, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the state:\ngot  %+v\nwant %+v", got, want)
	}
}

func TestLoadStateMissing(t *testing.T) {
	_, err := loadState(t.TempDir())
	if !errors.Is(err, errNoState) {
		t.Fatalf("loadState of an empty directory: %v, want errNoState", err)
	}
}

func TestUpdateStateKeepsOtherChanges(t *testing.T) {
	dir := t.TempDir()
	if err := saveState(sampleState(dir)); err != nil {
		t.Fatal(err)
	}
	for pid := 100; pid < 105; pid++ {
		if err := updateState(dir, func(s *State) error {
			p, err := s.proc("m1")
			if err == nil {
				p.Pid = pid
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("boom")
	if err := updateState(dir, func(s *State) error { s.Procs = nil; return boom }); !errors.Is(err, boom) {
		t.Fatalf("updateState returned %v, want the change's error", err)
	}
	s, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := s.proc("m1"); p == nil || p.Pid != 104 || len(s.Procs) != 2 {
		t.Fatalf("after updates: %+v, want m1 with pid 104 and a failed change not saved", s.Procs)
	}
}

func TestProcLookupNamesKnownProcesses(t *testing.T) {
	s := sampleState(t.TempDir())
	_, err := s.proc("m7")
	if err == nil || !strings.Contains(err.Error(), `"m7"`) || !strings.Contains(err.Error(), "m1") {
		t.Fatalf("proc(m7): %v, want an error naming m7 and the known m1", err)
	}
	if got := s.takenAddrs(); len(got) != 4 || !got["127.0.0.1:2391"] {
		t.Fatalf("takenAddrs: %v", got)
	}
}
