package alliance

import (
	"encoding/json"
	"log/slog"
	"slices"
	"testing"

	"flightalliance/coord"
)

func entryEvent(t *testing.T, typ coord.EventType, rev, created int64, e machineEntry) coord.Event {
	t.Helper()
	v, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return coord.Event{Type: typ, Name: e.Name, Value: v, Revision: rev, Stat: coord.Stat{CreateRevision: created, ModRevision: rev}}
}

func TestViewMembershipRevisionMovesOnlyOnMembershipChanges(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 10})
	v.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "m2", URL: "http://b"}))
	v.apply(entryEvent(t, coord.EventCreated, 12, 12, machineEntry{Name: "m1", URL: "http://a"}))
	if got := v.membership(); got != 12 {
		t.Fatalf("membership after two joins = %d, want 12", got)
	}
	// A machine publishing its assignment is not a membership change.
	v.apply(entryEvent(t, coord.EventChanged, 13, 11, machineEntry{Name: "m2", URL: "http://b", Primaries: []string{"LY"}}))
	if got := v.membership(); got != 12 {
		t.Fatalf("membership after an assignment update = %d, want 12", got)
	}
	// Announcing a leave is; so is asking for a new round, and a restart (new incarnation).
	v.apply(entryEvent(t, coord.EventChanged, 14, 11, machineEntry{Name: "m2", URL: "http://b", Primaries: []string{"LY"}, Leaving: true}))
	if got := v.membership(); got != 14 {
		t.Fatalf("membership after a leave announcement = %d, want 14", got)
	}
	v.apply(entryEvent(t, coord.EventChanged, 15, 12, machineEntry{Name: "m1", URL: "http://a", Epoch: 1}))
	if got := v.membership(); got != 15 {
		t.Fatalf("membership after an epoch bump = %d, want 15", got)
	}
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "m2", Revision: 16})
	if got := v.membership(); got != 16 {
		t.Fatalf("membership after a failure = %d, want 16", got)
	}
	if d := v.delegate(); d != "m1" {
		t.Fatalf("delegate = %q, want m1", d)
	}
}

// TestViewDataChangesPurgeTheCache: the callback that purges the delegate's cache runs once for
// every event that can change a search's answer — a listing, a join, a new incarnation, an
// assignment or a data version published, a seller's last live holder failing — and for nothing
// else (a failure while a seller's backup lives: it holds the same data); it runs outside the
// view's lock (it reads the view).
func TestViewDataChangesPurgeTheCache(t *testing.T) {
	purges := 0
	var v *view
	v = newView(slog.New(slog.DiscardHandler), func() {
		_ = v.entries() // would deadlock under the view's lock
		purges++
	})
	steps := []struct {
		what  string
		ev    coord.Event
		purge bool
	}{
		{"the first listing", coord.Event{Type: coord.EventResync, Revision: 10}, true},
		{"m2 joins", entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "m2"}), true},
		{"m1 joins", entryEvent(t, coord.EventCreated, 12, 12, machineEntry{Name: "m1"}), true},
		{"m2 publishes an assignment", entryEvent(t, coord.EventChanged, 13, 11,
			machineEntry{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}), true},
		{"m2 announces its leave", entryEvent(t, coord.EventChanged, 14, 11,
			machineEntry{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}, Leaving: true}), false},
		{"m1 asks for a round", entryEvent(t, coord.EventChanged, 15, 12, machineEntry{Name: "m1", Epoch: 1}), false},
		{"m2 publishes a new version of LY", entryEvent(t, coord.EventChanged, 16, 11,
			machineEntry{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}, Leaving: true}), true},
		{"m1 restarts (a new incarnation)", entryEvent(t, coord.EventCreated, 17, 17, machineEntry{Name: "m1", Epoch: 1}), true},
		{"m1 takes a backup of LY", entryEvent(t, coord.EventChanged, 18, 17,
			machineEntry{Name: "m1", Epoch: 1, Backups: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}), true},
		{"m2 fails (m1 holds LY)", coord.Event{Type: coord.EventDeleted, Name: "m2", Revision: 19}, false},
		{"m1 fails (LY's last holder)", coord.Event{Type: coord.EventDeleted, Name: "m1", Revision: 20}, true},
		{"a relisting", coord.Event{Type: coord.EventResync, Revision: 21}, true},
	}
	for _, s := range steps {
		before := purges
		v.apply(s.ev)
		if got := purges - before; got != map[bool]int{true: 1, false: 0}[s.purge] {
			t.Errorf("%s: %d purges, want purge=%v", s.what, got, s.purge)
		}
	}
}

// TestViewEachHolderTakingUpANewVersionPurges: the holders of a seller publish its new version one
// after the other; each purges — answers computed in between from the second's old copy must
// not outlive its taking up the new one.
func TestViewEachHolderTakingUpANewVersionPurges(t *testing.T) {
	purges := 0
	v := newView(slog.New(slog.DiscardHandler), func() { purges++ })
	v.apply(coord.Event{Type: coord.EventResync, Revision: 1})
	v.apply(entryEvent(t, coord.EventCreated, 2, 2, machineEntry{Name: "m1", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 3, 3, machineEntry{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	for _, step := range []machineEntry{
		{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}},
		{Name: "m1", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v2"}},
	} {
		before := purges
		v.apply(entryEvent(t, coord.EventChanged, 4, map[string]int64{"m1": 2, "m2": 3}[step.Name], step))
		if purges != before+1 {
			t.Errorf("%s publishes LY v2: %d purges, want 1", step.Name, purges-before)
		}
	}
}

// TestViewCandidatesFromABackupOfAnotherVersionKeepItsPlace: a backup whose copy is not of the
// version the primary publishes (it has not taken up the new one yet) does not ask itself first.
func TestViewCandidatesFromABackupOfAnotherVersionKeepItsPlace(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 1})
	v.apply(entryEvent(t, coord.EventCreated, 2, 2, machineEntry{Name: "m1", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 3, 3, machineEntry{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	if got := list(v.candidatesFrom("m1", "LY")); !slices.Equal(got, []string{"m2", "m1"}) {
		t.Errorf("candidatesFrom(m1) with m1 at v1, the primary at v2 = %v, want [m2 m1]", got)
	}
	v.apply(entryEvent(t, coord.EventChanged, 4, 2, machineEntry{Name: "m1", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	if got := list(v.candidatesFrom("m1", "LY")); !slices.Equal(got, []string{"m1", "m2"}) {
		t.Errorf("candidatesFrom(m1) once it took up v2 = %v, want [m1 m2]", got)
	}
	// With no primary live, a backup's copy is the one to read.
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "m2", Revision: 5})
	if got := list(v.candidatesFrom("m1", "LY")); len(got) == 0 || got[0] != "m1" {
		t.Errorf("candidatesFrom(m1) with no primary = %v, want m1 first", got)
	}
}

func TestViewCandidatesPrimaryFirstThenLastKnownHolders(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 1})
	v.apply(entryEvent(t, coord.EventCreated, 2, 2, machineEntry{Name: "m1", Backups: []string{"LY"}}))
	v.apply(entryEvent(t, coord.EventCreated, 3, 3, machineEntry{Name: "m2", Primaries: []string{"LY"}}))
	v.apply(entryEvent(t, coord.EventCreated, 4, 4, machineEntry{Name: "m3"}))
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"m2", "m1"}) {
		t.Fatalf("candidates = %v, want primary m2 then backup m1", got)
	}
	// m2 publishes that it gave LY to m3 before m3 publishes that it took it: the old holder
	// stays a candidate, so the delegate is never left without one.
	v.apply(entryEvent(t, coord.EventChanged, 5, 3, machineEntry{Name: "m2"}))
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"m1", "m2"}) {
		t.Fatalf("candidates mid-move = %v, want [m1 m2]", got)
	}
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "m1", Revision: 6})
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"m2"}) {
		t.Fatalf("candidates after m1 died = %v, want [m2] (dead machines are never candidates)", got)
	}
}

// TestViewCandidatesFromAHolderStartWithItself: a machine that holds a seller's backup asks
// itself first; one that holds none, or held it only in an earlier view, asks as candidates
// orders.
func TestViewCandidatesFromAHolderStartWithItself(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 1})
	v.apply(entryEvent(t, coord.EventCreated, 2, 2, machineEntry{Name: "m1", Backups: []string{"LY"}}))
	v.apply(entryEvent(t, coord.EventCreated, 3, 3, machineEntry{Name: "m2", Primaries: []string{"LY"}}))
	v.apply(entryEvent(t, coord.EventCreated, 4, 4, machineEntry{Name: "m3", Backups: []string{"LY"}}))
	for self, want := range map[string][]string{
		"m1": {"m1", "m2", "m3"}, // a backup: itself, then the primary and the other backup
		"m3": {"m3", "m2", "m1"},
		"m2": {"m2", "m1", "m3"}, // the primary is first anyway
		"m9": {"m2", "m1", "m3"}, // not in the view
	} {
		if got := list(v.candidatesFrom(self, "LY")); !slices.Equal(got, want) {
			t.Errorf("candidatesFrom(%s) = %v, want %v", self, got, want)
		}
	}
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"m2", "m1", "m3"}) {
		t.Errorf("candidates changed: %v", got)
	}
	// m3 gave its copy away: it is still a candidate (an earlier holder), but not its own first.
	v.apply(entryEvent(t, coord.EventChanged, 5, 4, machineEntry{Name: "m3"}))
	if got := list(v.candidatesFrom("m3", "LY")); !slices.Equal(got, []string{"m2", "m1", "m3"}) {
		t.Errorf("candidatesFrom(m3) after it gave LY away = %v, want [m2 m1 m3]", got)
	}
}

// TestViewCandidatesSayWhichAreAlike: the holders of a seller's current version come first and
// are counted alike (a search may ask any of them first); a holder of another version, or an
// earlier holder, is not; a machine asking for a seller it holds now has one alike, itself.
func TestViewCandidatesSayWhichAreAlike(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 1})
	v.apply(entryEvent(t, coord.EventCreated, 2, 2, machineEntry{Name: "m1", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	v.apply(entryEvent(t, coord.EventCreated, 3, 3, machineEntry{Name: "m2", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	v.apply(entryEvent(t, coord.EventCreated, 4, 4, machineEntry{Name: "m3", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 5, 5, machineEntry{Name: "m4"}))
	for _, tc := range []struct {
		self  string
		want  []string
		alike int
	}{
		{"", []string{"m2", "m1", "m3"}, 2},   // the primary and the backup at v2; m3 is at v1
		{"m4", []string{"m2", "m1", "m3"}, 2}, // holds nothing
		{"m1", []string{"m1", "m2", "m3"}, 1}, // its own copy is the one to read
		{"m2", []string{"m2", "m1", "m3"}, 1},
		{"m3", []string{"m2", "m1", "m3"}, 2}, // its copy is of another version
	} {
		got, alike := v.candidates("LY")
		if tc.self != "" {
			got, alike = v.candidatesFrom(tc.self, "LY")
		}
		if !slices.Equal(got, tc.want) || alike != tc.alike {
			t.Errorf("candidates as %q = %v with %d alike, want %v with %d", tc.self, got, alike, tc.want, tc.alike)
		}
	}
	v.apply(coord.Event{Type: coord.EventDeleted, Name: "m2", Revision: 6})
	// No live primary names a version: the one the last named (v2) is current, and m3's v1 copy
	// is not alike — a search must not pick it first to save a call.
	if got, alike := v.candidates("LY"); !slices.Equal(got, []string{"m1", "m3", "m2"}) || alike != 1 {
		t.Errorf("the primary gone: candidates = %v with %d alike, want [m1 m3 m2] with 1", got, alike)
	}
}

func TestViewCandidatesIncludeAJoinersOwnSellers(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 1})
	if v.takeRelisted() {
		t.Fatal("the first listing is not a re-listing")
	}
	v.apply(entryEvent(t, coord.EventCreated, 2, 2, machineEntry{Name: "m1", Primaries: []string{"LY"}}))
	v.apply(entryEvent(t, coord.EventCreated, 3, 3, machineEntry{Name: "m2", Brings: []string{"UA"}}))
	if got := list(v.candidates("UA")); !slices.Equal(got, []string{"m2"}) {
		t.Fatalf("candidates for a joiner's seller = %v, want [m2]", got)
	}
	if got := v.brought(); !slices.Equal(got, []string{"UA"}) {
		t.Fatalf("sellers brought = %v, want [UA] (a search must know them before the catalog says so)", got)
	}
	v.apply(coord.Event{Type: coord.EventResync, Revision: 9, Children: nil})
	if !v.takeRelisted() || v.takeRelisted() {
		t.Fatal("a re-listing after the watch lost its place must be reported once")
	}
}

// TestViewCandidatesWhileASellersDataIsReplaced: d brings LY's new data (v2) and becomes its
// primary; b takes up v2; a, the old primary, has given LY away but its publish has not landed,
// so its entry still names it LY's primary at v1. The holders of v2 are asked first — a reads
// itself last, though it names itself primary — and a only when neither answers.
func TestViewCandidatesWhileASellersDataIsReplaced(t *testing.T) {
	v := newView(slog.New(slog.DiscardHandler), nil)
	v.apply(coord.Event{Type: coord.EventResync, Revision: 10})
	v.apply(entryEvent(t, coord.EventCreated, 11, 11, machineEntry{Name: "a", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 12, 12, machineEntry{Name: "b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v1"}}))
	v.apply(entryEvent(t, coord.EventCreated, 13, 13, machineEntry{Name: "d", Brings: []string{"LY"}}))
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"a", "b", "d"}) {
		t.Fatalf("before the round: %v, want [a b d]", got)
	}
	v.apply(entryEvent(t, coord.EventChanged, 14, 13, machineEntry{Name: "d", Primaries: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"d", "a", "b"}) {
		t.Errorf("d published v2, b not yet: %v, want [d a b] (d's version is current; a and b are at another)", got)
	}
	v.apply(entryEvent(t, coord.EventChanged, 15, 12, machineEntry{Name: "b", Backups: []string{"LY"}, Versions: map[string]string{"LY": "v2"}}))
	for _, tc := range []struct {
		self string
		want []string
	}{
		{"", []string{"d", "b", "a"}},
		{"a", []string{"d", "b", "a"}},
		{"b", []string{"b", "d", "a"}},
		{"d", []string{"d", "b", "a"}},
	} {
		got := list(v.candidates("LY"))
		if tc.self != "" {
			got = list(v.candidatesFrom(tc.self, "LY"))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("b took up v2, a not published: candidatesFrom(%q) = %v, want %v", tc.self, got, tc.want)
		}
	}
	v.apply(entryEvent(t, coord.EventChanged, 16, 11, machineEntry{Name: "a"}))
	if got := list(v.candidates("LY")); !slices.Equal(got, []string{"d", "b", "a"}) {
		t.Errorf("a published: %v, want [d b a] (a as an earlier holder, last)", got)
	}
}

// list is the machines of candidates or candidatesFrom, without their count of alike.
func list(machines []string, _ int) []string { return machines }
