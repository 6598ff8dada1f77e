package member

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestAcrossZones(t *testing.T) {
	zones := func(m map[string]string) func(string) string {
		return func(name string) string {
			if z, ok := m[name]; ok {
				return z
			}
			return name
		}
	}
	for _, tc := range []struct {
		name  string
		names []string
		zones map[string]string
		n     int
		want  []string
	}{
		{"no zones: first n by name", []string{"m3", "m1", "m5", "m2", "m4"}, nil, 3, []string{"m1", "m2", "m3"}},
		{"no zones, n beyond", []string{"b", "a"}, nil, 5, []string{"a", "b"}},
		{"none", nil, nil, 3, nil},
		{"n zero", []string{"a"}, nil, 0, nil},
		{"one zone: by name", []string{"c", "a", "b"}, map[string]string{"a": "z", "b": "z", "c": "z"}, 2,
			[]string{"a", "b"}},
		{"three zones, five members, three voters", []string{"m1", "m2", "m3", "m4", "m5"},
			map[string]string{"m1": "A", "m2": "A", "m3": "B", "m4": "B", "m5": "C"}, 3, []string{"m1", "m3", "m5"}},
		{"second round", []string{"m1", "m2", "m3", "m4", "m5"},
			map[string]string{"m1": "A", "m2": "A", "m3": "B", "m4": "B", "m5": "C"}, 5,
			[]string{"m1", "m3", "m5", "m2", "m4"}},
		{"zones in zone-name order, not member order", []string{"a1", "a2", "b1", "c1"},
			map[string]string{"a1": "z3", "a2": "z3", "b1": "z1", "c1": "z2"}, 3, []string{"b1", "c1", "a1"}},
		{"fewer zones than voters", []string{"x", "y", "z", "w"},
			map[string]string{"x": "east", "y": "east", "z": "east", "w": "west"}, 3, []string{"x", "w", "y"}},
		{"more zones than voters: first zones by name", []string{"p", "q", "r", "s"},
			map[string]string{"p": "d", "q": "c", "r": "b", "s": "a"}, 2, []string{"s", "r"}},
		{"missing members are their own zone", []string{"a", "b", "c"}, map[string]string{"a": "b", "b": "b"}, 2,
			[]string{"a", "c"}},
	} {
		got := acrossZones(tc.names, zones(tc.zones), tc.n)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: acrossZones(%v, %v, %d) = %v, want %v", tc.name, tc.names, tc.zones, tc.n, got, tc.want)
		}
	}
}

// Without zones the bootstrap voters are the first MaxVoters names, as before zones existed;
// with them, one per zone first.
func TestBootstrapPeersAcrossZones(t *testing.T) {
	var parts []string
	for i := 1; i <= 7; i++ {
		parts = append(parts, fmt.Sprintf("m%d=http://127.0.0.1:%d", i, 2380+i))
	}
	initial := strings.Join(parts, ",")
	boot := func(maxVoters int, zones map[string]string) []string {
		t.Helper()
		c, err := Config{Name: "m4", DataDir: "/tmp/x", PeerURL: "http://127.0.0.1:2384",
			ClientURL: "http://127.0.0.1:2394", InitialCluster: initial, MaxVoters: maxVoters, PeerZones: zones}.normalize()
		if err != nil {
			t.Fatal(err)
		}
		peers, err := c.bootstrapPeers()
		if err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(peers))
	}
	for n := 1; n <= 8; n++ {
		want := []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7"}[:min(n, 7)]
		if got := boot(n, nil); !slices.Equal(got, want) {
			t.Errorf("no zones, MaxVoters %d: bootstrap %v, want the first names %v", n, got, want)
		}
	}
	zones := map[string]string{"m1": "a", "m2": "a", "m3": "a", "m4": "b", "m5": "b", "m6": "c", "m7": "c"}
	if got, want := boot(3, zones), []string{"m1", "m4", "m6"}; !slices.Equal(got, want) {
		t.Errorf("3 zones, MaxVoters 3: bootstrap %v, want %v", got, want)
	}
	if got, want := boot(5, zones), []string{"m1", "m2", "m4", "m5", "m6"}; !slices.Equal(got, want) {
		t.Errorf("3 zones, MaxVoters 5: bootstrap %v, want %v", got, want)
	}
}

func TestNextVoter(t *testing.T) {
	v := func(name, zone string) candidate { return candidate{name: name, zone: zone} }
	l := func(name, zone string) candidate {
		return candidate{name: name, zone: zone, learner: true, eligible: true}
	}
	down := func(name, zone string) candidate { return candidate{name: name, zone: zone, learner: true} }
	for _, tc := range []struct {
		name    string
		members []candidate
		want    string // "" = none
	}{
		{"no members", nil, ""},
		{"no learner", []candidate{v("a", "A"), v("b", "B")}, ""},
		{"no eligible learner", []candidate{v("a", "A"), down("b", "B")}, ""},
		{"no zones: first learner by name", []candidate{v("m1", "m1"), l("m4", "m4"), l("m3", "m3")}, "m3"},
		{"zone without voters first", []candidate{v("m1", "A"), v("m5", "C"), l("m2", "A"), l("m4", "B")}, "m4"},
		{"fewest voters first", []candidate{v("a1", "A"), v("a2", "A"), v("b1", "B"), l("a3", "A"), l("b2", "B")}, "b2"},
		{"tie: zone name", []candidate{v("x", "A"), l("z9", "B"), l("a9", "C")}, "z9"},
		{"tie in a zone: member name", []candidate{v("x", "A"), l("b3", "B"), l("b2", "B")}, "b2"},
		{"an unreachable learner is skipped", []candidate{v("a1", "A"), down("b1", "B"), l("a2", "A")}, "a2"},
		{"voters count whether reachable or not", []candidate{v("b1", "B"), v("b2", "B"), v("a1", "A"),
			l("b3", "B"), l("a2", "A")}, "a2"},
	} {
		got, ok := nextVoter(tc.members)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: nextVoter = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func TestZoneConfig(t *testing.T) {
	good := Config{Name: "m1", DataDir: "/tmp/x", PeerURL: "http://127.0.0.1:2381", ClientURL: "http://127.0.0.1:2391",
		InitialCluster: "m1=http://127.0.0.1:2381,m2=http://127.0.0.1:2382"}
	for _, tc := range []struct {
		zone  string
		peers map[string]string
		want  string
	}{
		{"", nil, "m1"},
		{"", map[string]string{"m2": "east"}, "m1"},
		{"", map[string]string{"m1": "west"}, "west"},
		{"north 1", map[string]string{"m1": "north 1"}, "north 1"},
		{"zone-ä", nil, "zone-ä"},
	} {
		cfg := good
		cfg.Zone, cfg.PeerZones = tc.zone, tc.peers
		c, err := cfg.normalize()
		if err != nil || c.Zone != tc.want {
			t.Errorf("Zone %q, PeerZones %v: normalized zone %q, %v; want %q", tc.zone, tc.peers, c.Zone, err, tc.want)
		}
	}
	for _, tc := range []struct {
		zone  string
		peers map[string]string
		names string
	}{
		{"a/b", nil, `Zone "a/b"`},
		{"a,b", nil, `Zone "a,b"`},
		{"a=b", nil, `Zone "a=b"`},
		{"a\tb", nil, `Zone "a\tb"`},
		{"", map[string]string{"m2": ""}, `PeerZones["m2"]`},
		{"", map[string]string{"m2": "x/y"}, `PeerZones["m2"]`},
		{"", map[string]string{"m2": "x\x00"}, `PeerZones["m2"]`},
		{"", map[string]string{"": "x"}, `PeerZones: member name ""`},
		{"", map[string]string{"m 2": "x"}, `PeerZones: member name "m 2"`},
		{"east", map[string]string{"m1": "west"}, `disagrees with PeerZones["m1"]`},
	} {
		cfg := good
		cfg.Zone, cfg.PeerZones = tc.zone, tc.peers
		_, err := cfg.normalize()
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("Zone %q, PeerZones %q: error %v should be ErrBadConfig naming %s", tc.zone, tc.peers, err, tc.names)
		}
	}
}

// zonesOf reads m's view of the zones, nil on error.
func zonesOf(t *testing.T, m *Member) map[string]string {
	ctx := ctxTimeout(t, 5*time.Second)
	z, err := m.Zones(ctx)
	if err != nil {
		return nil
	}
	return z
}

// Five members in three zones, three voters: the bootstrap takes one voter per zone (not the
// first three names), every member records its zone, and when the voter of zone B leaves, the
// learner of zone B is promoted rather than the first learner by name (of zone A). The peer list
// gives only the zones of the bootstrap voters: the learners' zones are known from their own
// records only (without them, m2 and m4 would be zones of their own, and m2 would come first).
func TestVotersAcrossZones(t *testing.T) {
	zones := map[string]string{"m1": "A", "m2": "A", "m3": "B", "m4": "B", "m5": "C"}
	c := newCluster(t, 5, func(cfg *Config) {
		cfg.MaxVoters = 3
		cfg.PeerZones = map[string]string{"m1": "A", "m3": "B", "m5": "C"}
		cfg.Zone = zones[cfg.Name]
	})
	ctx := ctxTimeout(t, 60*time.Second)
	start := time.Now()
	eventually(t, 20*time.Second, "every member sees m1, m3, m5 voting and m2, m4 learning", func() bool {
		for _, m := range c.members {
			voters, learners := memberNames(m.Status(ctx))
			if !slices.Equal(voters, []string{"m1", "m3", "m5"}) || !slices.Equal(learners, []string{"m2", "m4"}) {
				return false
			}
		}
		return true
	})
	eventually(t, 10*time.Second, "every member reads every zone from /coord/zones", func() bool {
		recorded, err := readZones(ctx, c.members[0].Client(), false)
		return err == nil && maps.Equal(recorded, zones) && maps.Equal(zonesOf(t, c.members[1]), zones)
	})
	t.Logf("bootstrap voters and zones seen %v after the start", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if err := c.members[2].Leave(ctx); err != nil {
		t.Fatal(err)
	}
	c.members[2] = nil
	eventually(t, 20*time.Second, "m4 (zone B) promoted after m3 (zone B) left, not m2 (zone A)", func() bool {
		voters, learners := memberNames(c.members[0].Status(ctx))
		return slices.Equal(voters, []string{"m1", "m4", "m5"}) && slices.Equal(learners, []string{"m2"})
	})
	t.Logf("m4 promoted %v after m3 began to leave", time.Since(start).Round(time.Millisecond))
	recorded, err := readZones(ctx, c.members[0].Client(), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := recorded["m3"]; ok || len(recorded) != 4 {
		t.Fatalf("zones recorded after m3 left: %v, want m3's deleted", recorded)
	}
}
