package gather

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"pgregory.net/rapid"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// firsts is the machines asked first: the first candidate of every key that has one.
func firsts(order map[string][]string) []string {
	seen := map[string]bool{}
	for _, list := range order {
		if len(list) > 0 {
			seen[list[0]] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func TestFewestCallsScenarios(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keys       []string
		candidates map[string][]string
		alike      map[string]int
		want       map[string][]string
	}{{
		// Five machines, a seller each and a backup of the next: m1 reads S1 and S5 itself; the
		// others' primaries would be three calls, two hold all three: m3 and m4, or (the tie
		// between m3 and m4 broken by tieRank) m4 and then S2's primary m2.
		name: "a ring of five, seen from m1",
		keys: []string{"S1", "S2", "S3", "S4", "S5"},
		candidates: map[string][]string{
			"S1": {"m1", "m2"}, "S2": {"m2", "m3"}, "S3": {"m3", "m4"}, "S4": {"m4", "m5"}, "S5": {"m1", "m5"},
		},
		alike: map[string]int{"S1": 1, "S2": 2, "S3": 2, "S4": 2, "S5": 1},
		want: map[string][]string{
			"S1": {"m1", "m2"}, "S2": {"m2", "m3"}, "S3": {"m4", "m3"}, "S4": {"m4", "m5"}, "S5": {"m1", "m5"},
		},
	}, {
		name:       "a key joins a machine asked anyway, however late it lists it",
		keys:       []string{"A", "B"},
		candidates: map[string][]string{"A": {"m1"}, "B": {"m2", "m3", "m1"}},
		alike:      map[string]int{"A": 1, "B": 3},
		want:       map[string][]string{"A": {"m1"}, "B": {"m1", "m2", "m3"}},
	}, {
		name:       "not beyond the alike: a holder of another version is not asked first",
		keys:       []string{"A", "B"},
		candidates: map[string][]string{"A": {"m1"}, "B": {"m2", "m1"}},
		alike:      map[string]int{"A": 1, "B": 1},
		want:       map[string][]string{"A": {"m1"}, "B": {"m2", "m1"}},
	}, {
		name:       "equal counts: the primary (listed first) before a backup",
		keys:       []string{"A", "B"},
		candidates: map[string][]string{"A": {"m2", "m1"}, "B": {"m3", "m4"}},
		alike:      map[string]int{"A": 2, "B": 2},
		want:       map[string][]string{"A": {"m2", "m1"}, "B": {"m3", "m4"}},
	}, {
		// Greedy takes m1 first (four keys), then m2 and m3 for E and F, which hold m1's keys too.
		name: "a machine the later ones make needless is dropped",
		keys: []string{"A", "B", "C", "D", "E", "F"},
		candidates: map[string][]string{
			"A": {"m1", "m2"}, "B": {"m1", "m2"}, "C": {"m1", "m3"}, "D": {"m1", "m3"}, "E": {"m2", "m4"}, "F": {"m3", "m5"},
		},
		alike: map[string]int{"A": 2, "B": 2, "C": 2, "D": 2, "E": 2, "F": 2},
		want: map[string][]string{
			"A": {"m2", "m1"}, "B": {"m2", "m1"}, "C": {"m3", "m1"}, "D": {"m3", "m1"}, "E": {"m2", "m4"}, "F": {"m3", "m5"},
		},
	}, {
		// Greedy takes r0 (four keys), then r2 (three), then l0 and l1, none of them needless:
		// four machines, where each key's first (l0, l1, l2) is three.
		name: "when greedy asks more than the view's order, the view's order",
		keys: []string{"K0", "K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8"},
		candidates: map[string][]string{
			"K0": {"l0", "r3"}, "K1": {"l2", "r0"}, "K2": {"l1", "r1"}, "K3": {"l1", "r2"}, "K4": {"l2", "r2"},
			"K5": {"l1", "r0"}, "K6": {"l0", "r2"}, "K7": {"l2", "r0"}, "K8": {"l0", "r0"},
		},
		alike: map[string]int{"K0": 2, "K1": 2, "K2": 2, "K3": 2, "K4": 2, "K5": 2, "K6": 2, "K7": 2, "K8": 2},
		want: map[string][]string{
			"K0": {"l0", "r3"}, "K1": {"l2", "r0"}, "K2": {"l1", "r1"}, "K3": {"l1", "r2"}, "K4": {"l2", "r2"},
			"K5": {"l1", "r0"}, "K6": {"l0", "r2"}, "K7": {"l2", "r0"}, "K8": {"l0", "r0"},
		},
	}, {
		// m1 is asked for F anyway, and A could join it; but m2, asked for B and C, is A's first:
		// A keeps the view's order, at no extra call.
		name:       "the view's order wherever it costs no call",
		keys:       []string{"F", "A", "B", "C"},
		candidates: map[string][]string{"F": {"m1"}, "A": {"m2", "m1"}, "B": {"m2", "m3"}, "C": {"m2", "m4"}},
		alike:      map[string]int{"F": 1, "A": 2, "B": 2, "C": 2},
		want:       map[string][]string{"F": {"m1"}, "A": {"m2", "m1"}, "B": {"m2", "m3"}, "C": {"m2", "m4"}},
	}, {
		// C's alike is not given: none, so C keeps its list and m3 is asked; B joins it. A's
		// alike beyond its list is the whole list.
		name:       "an alike beyond the list, or none given, is the list or nothing",
		keys:       []string{"A", "B", "C"},
		candidates: map[string][]string{"A": {"m1", "m2"}, "B": {"m2", "m3"}, "C": {"m3", "m4"}},
		alike:      map[string]int{"A": 9, "B": 2},
		want:       map[string][]string{"A": {"m1", "m2"}, "B": {"m3", "m2"}, "C": {"m3", "m4"}},
	}, {
		name:       "a key without candidates stays without",
		keys:       []string{"A", "B"},
		candidates: map[string][]string{"B": {"m3", "m4"}},
		alike:      map[string]int{"B": 2},
		want:       map[string][]string{"A": nil, "B": {"m3", "m4"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			before := fmt.Sprint(tc.candidates)
			got := fewestCalls(tc.keys, tc.candidates, tc.alike, ownZones, "")
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("fewestCalls = %v, want %v", got, tc.want)
			}
			if fmt.Sprint(tc.candidates) != before {
				t.Errorf("candidates changed: %v, was %v", tc.candidates, before)
			}
		})
	}
}

// TestFewestCallsSpreadsByZoneAfterTheFirst: three copies in two zones. UA's one copy is on b1,
// in zone a, so LY is asked of b1 too; its next holder, asked on a failure or a hedge, is b2 in
// zone b rather than its primary p in b1's zone a.
func TestFewestCallsSpreadsByZoneAfterTheFirst(t *testing.T) {
	zones := map[string]string{"p": "a", "b1": "a", "b2": "b", "old": "b"}
	got := fewestCalls([]string{"LY", "UA"},
		map[string][]string{"LY": {"p", "b2", "b1", "old"}, "UA": {"b1"}},
		map[string]int{"LY": 3, "UA": 1}, func(m string) string { return zones[m] }, "")
	if want := []string{"b1", "b2", "p", "old"}; !slices.Equal(got["LY"], want) {
		t.Errorf("LY asked in the order %v, want %v", got["LY"], want)
	}
}

// TestFewestCallsProperties: every key's list is its candidates, the first one of its alike
// first and the others in their order; a key with at most one alike keeps its list; no more
// machines are asked first than the view's order asks; the answer does not depend on the keys'
// order; and each machine asked first is needed: without it, some key has no other machine
// asked first among its alike.
func TestFewestCallsProperties(t *testing.T) {
	// Instances are small and many per check: a needless machine takes a few keys sharing
	// machines in a particular way, met about once in ten thousand instances.
	rapid.Check(t, func(t *rapid.T) {
		for range 200 {
			checkFewestCalls(t, drawCover(t))
		}
	})
}

// coverInstance is fewestCalls' input.
type coverInstance struct {
	keys       []string
	candidates map[string][]string
	alike      map[string]int
}

func drawCover(t *rapid.T) coverInstance {
	machines := []string{"m1", "m2", "m3", "m4", "m5", "m6"}
	in := coverInstance{candidates: map[string][]string{}, alike: map[string]int{}}
	for i := range rapid.IntRange(0, 8).Draw(t, "keys") {
		k := fmt.Sprintf("S%d", i)
		in.keys = append(in.keys, k)
		perm := rapid.Permutation(machines).Draw(t, "order")
		in.candidates[k] = perm[:rapid.IntRange(0, len(machines)).Draw(t, "holders")]
		in.alike[k] = rapid.IntRange(0, len(in.candidates[k])).Draw(t, "alike")
	}
	return in
}

func checkFewestCalls(t *rapid.T, in coverInstance) {
	keys, candidates, alike := in.keys, in.candidates, in.alike
	spread := rapid.SampledFrom([]string{"", "TLV|JFK", "CDG|NRT"}).Draw(t, "spread")
	got := fewestCalls(keys, candidates, alike, ownZones, spread)
	for _, k := range keys {
		c, g := candidates[k], got[k]
		if !slices.Equal(slices.Sorted(slices.Values(c)), slices.Sorted(slices.Values(g))) {
			t.Fatalf("%s: %v is not a reordering of %v", k, g, c)
		}
		if alike[k] <= 1 {
			if !slices.Equal(c, g) {
				t.Fatalf("%s with %d alike: %v, want %v kept", k, alike[k], g, c)
			}
			continue
		}
		i := slices.Index(c, g[0])
		if i >= alike[k] {
			t.Fatalf("%s: %s asked first is not among the %d alike of %v", k, g[0], alike[k], c)
		}
		if !slices.Equal(g[1:], slices.Delete(slices.Clone(c), i, i+1)) {
			t.Fatalf("%s: %v does not keep the others of %v in their order", k, g, c)
		}
	}
	if n, was := firstsAsked(got), firstsAsked(candidates); n > was {
		t.Fatalf("%d machines asked first, %d in the view's order: %v from %v", n, was, got, candidates)
	}
	shuffled := rapid.Permutation(keys).Draw(t, "shuffled")
	if again := fewestCalls(shuffled, candidates, alike, ownZones, spread); fmt.Sprint(again) != fmt.Sprint(got) {
		t.Fatalf("the keys' order changed the answer: %v, then %v", got, again)
	}
	if fmt.Sprint(got) == fmt.Sprint(candidates) {
		return // the view's order, kept: its machines need not all be needed
	}
	asked := firsts(got)
	for _, m := range asked {
		needed := false
		for _, k := range keys {
			if len(got[k]) == 0 || got[k][0] != m {
				continue
			}
			others := slices.ContainsFunc(candidates[k][:max(alike[k], 1)], func(o string) bool { return o != m && slices.Contains(asked, o) })
			needed = needed || !others || alike[k] <= 1
		}
		if !needed {
			t.Fatalf("%s is asked first but every key it covers had another machine asked: %v", m, got)
		}
	}
}

// ownZones puts every machine in a zone of its own.
func ownZones(machine string) string { return machine }

// ring is an alliance of five machines, each the primary of one seller and the backup of the
// next one's, seen from m1; it answers every call at once, counting them by machine.
type ring struct {
	mu    sync.Mutex
	calls map[string][]string // machine → the sellers of each call, joined
}

var ringHolders = map[string][]string{ // seller → primary, backup
	"S1": {"m1", "m2"}, "S2": {"m2", "m3"}, "S3": {"m3", "m4"}, "S4": {"m4", "m5"}, "S5": {"m5", "m1"},
}

func (*ring) Ready() bool                { return true }
func (*ring) Sellers() []string          { return []string{"S1", "S2", "S3", "S4", "S5"} }
func (*ring) Zone(machine string) string { return machine }
func (*ring) Candidates(seller string) ([]string, int) {
	h := ringHolders[seller]
	if i := slices.Index(h, "m1"); i >= 0 { // m1 reads its own copy first
		return []string{"m1", h[1-i]}, 1
	}
	return slices.Clone(h), 2
}
func (r *ring) Ask(_ context.Context, machine string, _ trip.Query, _ Sides, sellers []string) (src, dst []flight.Flight, covered []string, heard bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls[machine] = append(r.calls[machine], strings.Join(sellers, ","))
	return nil, nil, sellers, true
}

// TestAGatherAsksTheFewestMachines: seen from m1, S1 and S5 are its own; S2, S3 and S4 are held
// by m2…m5, two copies each, and two machines hold all three — two calls, not three to the
// primaries; and searches of other pairs ask other pairs of machines, so that no holder is
// asked by every search.
func TestAGatherAsksTheFewestMachines(t *testing.T) {
	asked := map[string]int{}
	for _, dst := range []string{"JFK", "CDG", "NRT", "LHR", "SFO", "BKK", "GRU", "SYD"} {
		r := &ring{calls: map[string][]string{}}
		s := New(Config{Alliance: "star"}, r, ledger.NewSeats("star"), Metrics{
			Seconds:     prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "s"}, []string{"cache"}),
			CacheHits:   prometheus.NewCounter(prometheus.CounterOpts{Name: "h"}),
			CacheMisses: prometheus.NewCounter(prometheus.CounterOpts{Name: "m"}),
		})
		resp, err := s.GetTrips(context.Background(), &soap.GetTripsRequest{Src: "TLV", Dst: dst, Date: "2026-12-01"})
		if err != nil || !resp.Complete {
			t.Fatalf("TLV→%s: GetTrips = %+v, %v; want a complete answer", dst, resp, err)
		}
		var others []string
		for m, calls := range r.calls {
			if len(calls) != 1 {
				t.Errorf("TLV→%s: %s asked %d times: %v", dst, m, len(calls), calls)
			}
			if m != "m1" {
				others = append(others, calls...)
				asked[m]++
			}
		}
		slices.Sort(others)
		if got := strings.Join(others, ","); len(r.calls) != 3 || r.calls["m1"][0] != "S1,S5" || len(strings.Split(got, ",")) != 3 {
			t.Errorf("TLV→%s: calls by machine %v, want m1 for S1 and S5 and two machines for S2, S3 and S4, each once", dst, r.calls)
		}
	}
	if len(asked) < 3 {
		t.Errorf("eight pairs asked only %v of m2…m5: every search goes to the same holders", asked)
	}
}
