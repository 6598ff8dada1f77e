package alliance

import (
	"slices"
	"testing"
	"time"

	"flightalliance/coord"
)

// The alliance of the delegate tests: four machines, three sellers, each seller with a primary
// and a backup on another machine; m4 holds nothing.
var delegateView = []machineEntry{
	{Name: "m1", URL: "https://m1", Primaries: []string{"AA"}, Backups: []string{"BB"}},
	{Name: "m2", URL: "https://m2", Primaries: []string{"BB"}, Backups: []string{"CC"}},
	{Name: "m3", URL: "https://m3", Primaries: []string{"CC"}, Backups: []string{"AA"}},
	{Name: "m4", URL: "https://m4"},
}

// fakeHealth answers the health checks of one pass: up machines answer, with or without quorum;
// the others are down (or cut off from this one). It records who was asked.
type fakeHealth struct {
	up, quorum []string
	asked      []string
}

func (f *fakeHealth) probe(url string) health {
	name := url[len("https://"):]
	f.asked = append(f.asked, name)
	if !slices.Contains(f.up, name) {
		return health{}
	}
	return health{OK: true, Quorum: slices.Contains(f.quorum, name)}
}

// copiesIn says where each of sellers is in entries, as self sees it: here when self's entry
// holds it, otherwise its holders (primary, then backups).
func copiesIn(entries []machineEntry, self string, sellers []string) func() []sellerCopy {
	return func() []sellerCopy {
		var out []sellerCopy
		for _, s := range sellers {
			c := sellerCopy{seller: s}
			for _, e := range entries {
				if slices.Contains(e.Primaries, s) || slices.Contains(e.Backups, s) {
					if e.Name == self {
						c.here = true
					}
					c.holders = append(c.holders, e.Name)
				}
			}
			if c.here {
				c.holders = nil
			}
			out = append(out, c)
		}
		return out
	}
}

// TestActsAsDelegate: with quorum the first machine in name order that answers acts; without
// quorum a machine acts only while it reaches no machine with quorum, is the first in line among
// those it reaches, and its copies with theirs cover every seller.
func TestActsAsDelegate(t *testing.T) {
	sellers := []string{"AA", "BB", "CC"}
	cases := []struct {
		name       string
		self       string
		entries    []machineEntry
		quorum     bool
		up, withQ  []string       // the others that answer; those of them with quorum
		sellers    []string       // the sellers the alliance knows (default: sellers)
		copiesOf   []machineEntry // where the copies are said to be (default: entries)
		wantActing bool
	}{
		{name: "empty view: nobody acts", self: "m1", entries: []machineEntry{}, quorum: true, wantActing: false},

		{name: "quorum: the smallest live machine acts", self: "m1", quorum: true,
			up: []string{"m2", "m3", "m4"}, withQ: []string{"m2", "m3", "m4"}, wantActing: true},
		{name: "quorum: the next stands by while the smallest answers", self: "m2", quorum: true,
			up: []string{"m1", "m3", "m4"}, withQ: []string{"m1", "m3", "m4"}, wantActing: false},
		{name: "quorum: the next acts when the smallest fails its health check", self: "m2", quorum: true,
			up: []string{"m3", "m4"}, withQ: []string{"m3", "m4"}, wantActing: true},
		{name: "quorum: a machine acts only when every one before it fails", self: "m3", quorum: true,
			up: []string{"m2", "m4"}, withQ: []string{"m2", "m4"}, wantActing: false},
		{name: "quorum: copies do not matter", self: "m4", quorum: true,
			sellers: []string{"AA", "BB", "CC", "ZZ"}, wantActing: true},
		{name: "quorum: a leaving machine answering is still first in line", self: "m2", quorum: true,
			entries: leavingIn(delegateView, "m1"), up: []string{"m1"}, withQ: []string{"m1"}, wantActing: false},

		{name: "no quorum: the first in line among those it reaches acts, their copies covering every seller",
			self: "m2", up: []string{"m3"}, wantActing: true},
		{name: "no quorum: reaching a smaller machine without quorum, it stands by",
			self: "m3", up: []string{"m1"}, wantActing: false},
		{name: "no quorum: copies that miss a seller (AA: m1 and m3 unreachable) do not act",
			self: "m2", up: []string{"m4"}, wantActing: false},
		{name: "no quorum: a seller the alliance knows but nobody holds is not covered",
			self: "m1", up: []string{"m2", "m3", "m4"}, sellers: []string{"AA", "BB", "CC", "ZZ"}, wantActing: false},
		{name: "no quorum: a holder the view no longer has does not cover", self: "m2",
			entries: without(delegateView, "m3"), copiesOf: delegateView, up: []string{"m3", "m4"}, wantActing: false},
		{name: "no quorum: alone with copies of every seller, it acts", self: "m4",
			entries: []machineEntry{{Name: "m4", URL: "https://m4", Primaries: sellers}}, wantActing: true},
		{name: "no quorum: a machine with quorum it does not reach does not stop it",
			self: "m1", up: []string{"m2", "m3"}, withQ: []string{"m4"}, wantActing: true},
		{name: "no quorum: reaching a machine with quorum, even the smallest never acts",
			self: "m1", up: []string{"m2", "m3", "m4"}, withQ: []string{"m4"}, wantActing: false},
		{name: "no quorum: reaching a machine with quorum, one whose predecessors are gone never acts",
			self: "m3", up: []string{"m4"}, withQ: []string{"m4"}, sellers: []string{"CC"}, wantActing: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entries := orDefault(c.entries, delegateView)
			h := &fakeHealth{up: c.up, quorum: c.withQ}
			p := delegatePass{self: c.self, entries: entries, quorum: c.quorum, now: epoch,
				copies: copiesIn(orDefault(c.copiesOf, entries), c.self, orDefault(c.sellers, sellers)), probe: h.probe}
			if got := actsAsDelegate(p); got != c.wantActing {
				t.Errorf("acting %v, want %v (health checks: %v)", got, c.wantActing, h.asked)
			}
		})
	}
}

// TestActsAsDelegateAsksOnlyWhatItNeeds: a health check of a machine that does not answer costs
// up to a second, so a pass asks no more than its decision needs (and probeOnce asks each
// machine at most once per pass).
func TestActsAsDelegateAsksOnlyWhatItNeeds(t *testing.T) {
	h := &fakeHealth{up: []string{"m2", "m3", "m4"}}
	p := delegatePass{self: "m1", entries: delegateView, quorum: true, probe: h.probe,
		copies: func() []sellerCopy { t.Fatal("copies asked with quorum"); return nil }}
	if !actsAsDelegate(p) || len(h.asked) != 0 {
		t.Errorf("first in line with quorum: asked %v, want nobody", h.asked)
	}
	h = &fakeHealth{up: []string{"m2"}}
	p.self, p.probe = "m3", h.probe
	if actsAsDelegate(p) || !slices.Equal(h.asked, []string{"m1", "m2"}) {
		t.Errorf("m3 with quorum: asked %v, want m1, m2 (those before it, in order)", h.asked)
	}
}

// TestAlternatesOf: the machines after the delegate in name order first, then those before it,
// at most maxAlternates; a leaving machine is named while its entry is there.
func TestAlternatesOf(t *testing.T) {
	six := []machineEntry{{Name: "m1", URL: "https://m1"}, {Name: "m2", URL: "https://m2"},
		{Name: "m3", URL: "https://m3"}, {Name: "m4", URL: "https://m4"}, {Name: "m5", URL: "https://m5"},
		{Name: "m6", URL: "https://m6"}}
	cases := []struct {
		name    string
		entries []machineEntry
		self    string
		want    []string
	}{
		{"successors first", delegateView, "m1", []string{"m2", "m3", "m4"}},
		{"then those before it", delegateView, "m3", []string{"m4", "m1", "m2"}},
		{"at most maxAlternates", six, "m2", []string{"m3", "m4", "m5", "m6"}},
		{"at most maxAlternates, wrapping", six, "m5", []string{"m6", "m1", "m2", "m3"}},
		{"a leaving machine is named", leavingIn(delegateView, "m2"), "m1", []string{"m2", "m3", "m4"}},
		{"alone: none", delegateView[:1], "m1", nil},
		{"not in the view: every machine", delegateView[1:], "m1", []string{"m2", "m3", "m4"}},
	}
	for _, c := range cases {
		var want []string
		for _, name := range c.want {
			want = append(want, "https://"+name+sellerPath)
		}
		if got := alternatesOf(c.entries, c.self); !slices.Equal(got, want) {
			t.Errorf("%s: alternates %v, want %v", c.name, got, want)
		}
	}
}

// TestDelegateRoleStep walks one machine's delegate loop through its passes: it stands by while
// the machine before it answers, acts and registers at once when that one is gone, registers
// again when its alternates change or `every` has passed, acts but registers no more while it
// leaves, and stops acting when a machine before it answers again.
func TestDelegateRoleStep(t *testing.T) {
	role := delegateRole{reg: registrar{every: 3 * time.Second}}
	passes := []struct {
		name    string
		at      time.Duration
		entries []machineEntry
		up      []string
		leaving bool
		want    delegateDecision
	}{
		{"m1 answers", 0, delegateView, []string{"m1"}, false,
			delegateDecision{acting: false, alternates: alts("m3", "m4", "m1")}},
		{"m1 is killed", time.Second, delegateView, nil, false,
			delegateDecision{acting: true, alternates: alts("m3", "m4", "m1"), roleChanged: true, register: true}},
		{"m1's entry is gone", 2 * time.Second, without(delegateView, "m1"), nil, false,
			delegateDecision{acting: true, alternates: alts("m3", "m4"), register: true}},
		{"a second later", 3 * time.Second, without(delegateView, "m1"), nil, false,
			delegateDecision{acting: true, alternates: alts("m3", "m4")}},
		{"every three seconds", 5 * time.Second, without(delegateView, "m1"), nil, false,
			delegateDecision{acting: true, alternates: alts("m3", "m4"), register: true}},
		{"leaving", 9 * time.Second, leavingIn(without(delegateView, "m1"), "m2"), nil, true,
			delegateDecision{acting: true, alternates: alts("m3", "m4")}},
		{"m1 is back", 10 * time.Second, delegateView, []string{"m1"}, false,
			delegateDecision{acting: false, alternates: alts("m3", "m4", "m1"), roleChanged: true}},
	}
	for _, s := range passes {
		h := &fakeHealth{up: s.up, quorum: s.up}
		got := role.step(delegatePass{self: "m2", entries: s.entries, quorum: true, leaving: s.leaving,
			now: epoch.Add(s.at), probe: h.probe, copies: copiesIn(s.entries, "m2", nil)})
		if got.acting != s.want.acting || got.roleChanged != s.want.roleChanged || got.register != s.want.register ||
			!slices.Equal(got.alternates, s.want.alternates) {
			t.Errorf("%s: got %+v, want %+v", s.name, got, s.want)
		}
	}
}

// TestDelegateRoleWaitsForALaggingView: a machine whose view lags etcd (it just joined and
// sees only itself, while etcd already lists m1, the delegate) does not start acting — it
// would replace m1's registration with one that names no alternates. It acts once the machine
// before it is in its view and fails. etcd is read before each registration with quorum, and
// a view that lags again at a refresh stops it acting.
func TestDelegateRoleWaitsForALaggingView(t *testing.T) {
	role := delegateRole{reg: registrar{every: 3 * time.Second}}
	reads := 0
	passes := []struct {
		name         string
		at           time.Duration
		entries      []machineEntry
		up           []string
		quorum       bool
		unseenBefore bool
		want         delegateDecision
		wantReads    int
	}{
		{"only itself in the view, m1 in etcd", 0, without(without(without(delegateView, "m1"), "m3"), "m4"), nil, true, true,
			delegateDecision{acting: false}, 1},
		{"m1 in the view and answering", time.Second, delegateView, []string{"m1"}, true, false,
			delegateDecision{acting: false, alternates: alts("m3", "m4", "m1")}, 1},
		{"m1 killed, its entry still stored", 2 * time.Second, delegateView, []string{"m3", "m4"}, true, false,
			delegateDecision{acting: true, alternates: alts("m3", "m4", "m1"), roleChanged: true, register: true}, 2},
		{"acting, no registration due: no read", 3 * time.Second, delegateView, []string{"m3", "m4"}, true, true,
			delegateDecision{acting: true, alternates: alts("m3", "m4", "m1")}, 2},
		{"a refresh due while the view lags again", 5 * time.Second, delegateView, []string{"m3", "m4"}, true, true,
			delegateDecision{acting: false, alternates: alts("m3", "m4", "m1"), roleChanged: true}, 3},
	}
	for _, s := range passes {
		h := &fakeHealth{up: s.up, quorum: s.up}
		got := role.step(delegatePass{self: "m2", entries: s.entries, quorum: s.quorum, now: epoch.Add(s.at),
			probe: h.probe, copies: copiesIn(s.entries, "m2", nil),
			unseenBefore: func() bool { reads++; return s.unseenBefore }})
		if got.acting != s.want.acting || got.roleChanged != s.want.roleChanged || got.register != s.want.register ||
			!slices.Equal(got.alternates, s.want.alternates) || reads != s.wantReads {
			t.Errorf("%s: got %+v after %d reads of etcd, want %+v after %d", s.name, got, reads, s.want, s.wantReads)
		}
	}
	// Without quorum etcd cannot be read: the health checks decide alone.
	role = delegateRole{reg: registrar{every: 3 * time.Second}}
	reads = 0
	h := &fakeHealth{}
	alone := without(without(without(delegateView, "m1"), "m3"), "m4")
	got := role.step(delegatePass{self: "m2", entries: alone, now: epoch, probe: h.probe,
		copies: copiesIn(delegateView, "m2", []string{"BB", "CC"}), unseenBefore: func() bool { reads++; return true }})
	if !got.acting || reads != 0 {
		t.Errorf("without quorum, covering every seller: got %+v after %d reads of etcd, want acting after none", got, reads)
	}
}

// TestUnseenIn: etcd's machines ranked before self that the view lacks, the malformed ones
// left out as the view leaves them out.
func TestUnseenIn(t *testing.T) {
	child := func(name, value string) coord.Child { return coord.Child{Name: name, Value: []byte(value)} }
	entry := func(name string) coord.Child { return child(name, `{"name":"`+name+`","url":"https://`+name+`"}`) }
	view := []machineEntry{{Name: "m2"}, {Name: "m4"}}
	for _, c := range []struct {
		name   string
		stored []coord.Child
		want   string
	}{
		{"caught up", []coord.Child{entry("m2"), entry("m4")}, ""},
		{"a machine before self missing", []coord.Child{entry("m1"), entry("m2"), entry("m4")}, "m1"},
		{"only machines after self missing", []coord.Child{entry("m2"), entry("m4"), entry("m5")}, ""},
		{"the view has more (a deletion not seen yet)", []coord.Child{entry("m2")}, ""},
		{"a malformed entry before self", []coord.Child{child("m0", "{"), child("m1", `{"name":"other"}`), entry("m2")}, ""},
		{"nothing stored", nil, ""},
	} {
		name, unseen := unseenIn(c.stored, view, "m3")
		if name != c.want || unseen != (c.want != "") {
			t.Errorf("%s: unseenIn = %q, %v; want %q", c.name, name, unseen, c.want)
		}
	}
}

// alts are the alternates naming machines, as a registration names them.
func alts(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, "https://"+n+sellerPath)
	}
	return out
}

// leavingIn returns entries with name's entry announcing its leave.
func leavingIn(entries []machineEntry, name string) []machineEntry {
	out := slices.Clone(entries)
	for i := range out {
		if out[i].Name == name {
			out[i].Leaving = true
		}
	}
	return out
}

// without returns entries without name's.
func without(entries []machineEntry, name string) []machineEntry {
	return slices.DeleteFunc(slices.Clone(entries), func(e machineEntry) bool { return e.Name == name })
}

// orDefault is s, or def when s is nil (an empty s stays empty).
func orDefault[T any](s, def []T) []T {
	if s == nil {
		return def
	}
	return s
}
