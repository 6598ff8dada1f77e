package integration

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/tests/framework"
)

// TestNothingLeaksRoundAfterRound runs the same round of work six times against a secure
// alliance of three machines (two copies of every seller, the default) behind a search server,
// and checks that after every round from the third each process comes back to the goroutines
// and open files it had after the second (less those of the connections it keeps open between
// requests, whose number follows the round before, and which must stay bounded: see
// goroutines.Stacks.Pooled): a goroutine, a file or a connection left behind per request, per
// hedge, per abandoned call or per booking would grow round after round, and a daemon that runs
// for months would run out. When one does not come back, the test names the stacks whose
// goroutines grew and the open files that did (/proc), and keeps both goroutine profiles.
//
// A round is what a server sees in a busy minute, in a few seconds: 16 clients (half over
// HTTP/1.1, half over HTTP/2) search whole answers and pages (each complete and equal to the
// reference), and searches they abandon before the answer or halfway through reading it — pairs
// of airports whose flights no earlier round asked for, so that the delegate asks the holders —
// while the holder it asks first for the seller it lacks is paused (2 s at most, never while it
// leads etcd: its calls hedged to the other copy, the losers cancelled) and then resumed; then a
// booking cancelled, a hold confirmed and cancelled, and a hold left to expire. The delegate must
// not move. The membership watch runs throughout.
func TestNothingLeaksRoundAfterRound(t *testing.T) {
	searchPprof := framework.FreeAddr(t)
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{pprof: true}, nil,
		"--pprof", searchPprof)
	booked := directFlights(w.a.data, "LY", 1)[0]
	w.waitBookable(booked, 90*time.Second)
	const rounds, perRound = 6, 6
	first, _ := w.a.readyQueries(w.base, 1)
	queries := freshPairs(t, busyQueries(w.a.activeData(), 1000), first, rounds*perRound)
	want := map[string][]string{}
	for _, q := range queries {
		want[q.String()] = referenceAcross([]map[string][]flight.Flight{w.a.activeData()}, q, 30*time.Minute)
	}
	clients := []*http.Client{
		{Transport: http1Transport(), Timeout: 20 * time.Second},
		{Transport: testerTransport(), Timeout: 20 * time.Second},
	}
	procs := []watchedProcess{{name: "search", metrics: w.base + "/metrics", pprof: "http://" + searchPprof, proc: w.search}}
	for _, name := range w.a.order {
		m := w.a.machines[name]
		procs = append(procs, watchedProcess{name: name, metrics: m.url() + "/metrics", pprof: "http://" + m.pprof, proc: m.proc})
	}

	delegate := w.a.delegate()
	victims := slices.DeleteFunc(slices.Clone(w.a.order), func(n string) bool { return n == delegate })
	var baseline *levelSnapshot
	unhedged := 0 // rounds in a row whose paused machine was not asked
	for round := range rounds {
		r := leakRound{w: w, clients: clients, queries: queries[round*perRound : (round+1)*perRound], want: want, booked: booked}
		if hedges := r.run(t, round, delegate, victims[0]); hedges == 0 {
			// The delegate asks the other copy first: pause that one from now on.
			if unhedged++; unhedged == len(victims) {
				t.Fatalf("round %d: no round of the last %d hedged a call, whichever machine was paused", round, unhedged)
			}
			victims = append(victims[1:], victims[0])
		} else {
			unhedged = 0
		}
		for _, c := range clients {
			c.CloseIdleConnections()
		}
		switch {
		case round == 0: // the first rounds fill the pools that then stay
		case baseline == nil:
			baseline = baselineOf(t, procs)
			t.Logf("after round %d: %v", round, baseline.levels)
		default:
			baseline.expectBack(t, fmt.Sprintf("after round %d", round))
		}
	}
}

// freshPairs picks n queries out of candidates (the busiest first) whose source and destination
// no other pick, nor avoid, has as its own: the delegate's caches hold the flights per seller
// and airport side, so each pick's flights are asked of the holders the first time it is asked.
func freshPairs(t testing.TB, candidates []query, avoid []query, n int) []query {
	t.Helper()
	srcs, dsts := map[string]bool{}, map[string]bool{}
	for _, q := range avoid {
		srcs[q.src], dsts[q.dst] = true, true
	}
	var out []query
	for _, q := range candidates {
		if len(out) < n && !srcs[q.src] && !dsts[q.dst] {
			srcs[q.src], dsts[q.dst] = true, true
			out = append(out, q)
		}
	}
	if len(out) < n {
		t.Fatalf("only %d pairs of airports apart of %d candidates, want %d", len(out), len(candidates), n)
	}
	return out
}
