package integration

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/soap"
	"flightalliance/tests/framework"
)

// wanOneWay is the delay of every link in each direction: 200 ms round trips, about New York to
// Tokyo.
const wanOneWay = 100 * time.Millisecond

// wanAirlineFlags are the settings for machines 200 ms apart: --network wan sets the timers that
// follow the round trip (heartbeat, election timeout, session TTL, hedge and call timeouts).
var wanAirlineFlags = []string{"--network", "wan"}

// wanSearchFlags are the settings for a search server 200 ms from the delegates (--hedge-delay).
var wanSearchFlags = []string{"--network", "wan"}

// BenchmarkAcrossContinents is an alliance across continents: three machines of one
// alliance (secure, two copies of every seller) and a search server, every link between them
// 200 ms round trip — etcd's peer traffic, the SOAP calls between machines, the search server's
// calls to the delegate and the delegate's registrations each go through a proxy of the machine
// (or search server) called, which delays both directions by 100 ms. A machine's etcd client
// talks to its own member, and the client sits beside the search server. The machines run with
// README's settings for such links (wanAirlineFlags), the search server with its own.
//
// It reports, in round trips measured on the same kind of proxy (a one-byte TCP echo, rtt-ms):
// the p50 of a search through the search server for a query the delegate has not cached (cold)
// and of the same search again (warm); the p50 of a booking through the search server's REST API
// (what clients do), to a delegate whose etcd member follows (the leadership is moved off it if
// it leads), and of one sent straight to the machine whose member leads (SOAP reserve: the
// shortest path a booking has); the raft elections (the term's increase) and the sessions lost
// while nothing failed — both 0 when the timers fit the link. Then it kills the machine whose
// member leads (not the delegate) with SIGKILL under a steady load of searches, each for a query
// not asked before (a cached answer would hide the kill), and reports the answers that came back
// incomplete (0 expected: every seller has a second copy), the elections, the other machines'
// sessions lost and the time to a settled placement. Timings are reported, never asserted. One
// fixed workload, about a minute:
//
//	go test -run '^$' -bench AcrossContinents -benchtime=1x ./integration/
func BenchmarkAcrossContinents(b *testing.B) {
	const coldQueries, bookings = 10, 10
	dir := b.TempDir()
	base, _ := framework.StartSearch(b, dir, wanSearchFlags...)
	a := prepareAlliance(b, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}},
		allianceOpts{net: true, extra: wanAirlineFlags})
	a.search = []string{"https://" + a.net.proxy("search", strings.TrimPrefix(base, "https://"))}
	echo := a.net.echoProxy("echo")
	a.net.delayAll(wanOneWay)

	started := time.Now()
	for _, n := range a.order {
		a.start(n)
	}
	a.waitSettled(3 * time.Minute)
	readyQueries, want := a.readyQueries(base, 3)
	b.Logf("alliance settled and answering through the search server %v after the start", time.Since(started).Round(time.Millisecond))

	b.ResetTimer()
	rtts := roundTrips(b, echo, 20)
	rtt := rtts[len(rtts)/2]
	inRTT := func(d time.Duration) float64 { return float64(d) / float64(rtt) }
	b.Logf("round trip through a proxy: p50 %v (min %v, max %v)", rtt, rtts[0], rtts[len(rtts)-1])

	// Most bookings reach a delegate whose etcd member follows (with three machines, two times in
	// three): make it so here, so that the figure does not depend on who won the first election.
	delegate := a.delegate()
	a.moveEtcdLeaderOff(delegate)
	quiet := a.wanSnapshot()

	// Searches: each query cold (the delegate asks the holders), then warm (its cache answers).
	queries := busyQueries(a.activeData(), len(readyQueries)+coldQueries+200)[len(readyQueries):]
	for _, q := range queries {
		want[q.String()] = referenceAcross([]map[string][]flight.Flight{a.activeData()}, q, 30*time.Minute)
	}
	hedged, alternates := a.hedgeCounts(base, delegate)
	var cold, warm []time.Duration
	for _, q := range queries[:coldQueries] {
		cold = append(cold, timedSearch(b, base, q, want[q.String()]))
		warm = append(warm, timedSearch(b, base, q, want[q.String()]))
	}
	hedgedAfter, alternatesAfter := a.hedgeCounts(base, delegate)
	slices.Sort(cold)
	slices.Sort(warm)
	b.Logf("searches: cold %v, warm %v; the delegate hedged %v sellers, the search server asked %v alternates",
		cold, warm, hedgedAfter-hedged, alternatesAfter-alternates)

	// Bookings of one seat on distinct flights, each with a key of its own: through the search
	// server (to the delegate, whose member follows), then straight to the machine whose etcd
	// member leads.
	flights := wanBookingFlights(a.activeData(), 2*bookings+2)
	if len(flights) < 2*bookings+2 {
		b.Fatalf("%d flights to book, want %d", len(flights), 2*bookings+2)
	}
	api := newBookingAPI(base)
	leader := quiet.leader
	direct := soap.NewSellerClient(a.machines[leader].scheme+a.machines[leader].soapProxy+"/Services/SellerService",
		soap.ClientOptions{Timeout: 30 * time.Second, HTTPClient: httpClient})
	restBook := func(f flight.Flight) (time.Duration, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		start := time.Now()
		ans := api.bookUntilDefinite(ctx, newKey("wan"), oneLeg(f, 1))
		if ans.status != http.StatusCreated {
			return 0, fmt.Errorf("REST booking of %s %s: %v", f.Seller, f.Number, ans)
		}
		return time.Since(start), nil
	}
	directBook := func(f flight.Flight) (time.Duration, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		start := time.Now()
		resp, err := direct.Reserve(ctx, soap.ReserveRequest{Alliance: a.name, Seats: 1, RequestID: newKey("wan-direct"),
			Legs: []soap.LegRef{{Seller: f.Seller, Flight: f.Number}}})
		if err != nil || !resp.Created {
			return 0, fmt.Errorf("reserve of %s %s on %s: %+v, %v", f.Seller, f.Number, leader, resp, err)
		}
		return time.Since(start), nil
	}
	// The first of each opens its connections and fetches the WSDL: not counted.
	for i, book := range []func(flight.Flight) (time.Duration, error){restBook, directBook} {
		if _, err := book(flights[i]); err != nil {
			b.Fatal(err)
		}
	}
	var viaSearch, toLeader []time.Duration
	for i := range bookings {
		if d, err := restBook(flights[2+2*i]); err != nil {
			b.Error(err)
		} else {
			viaSearch = append(viaSearch, d)
		}
		if d, err := directBook(flights[3+2*i]); err != nil {
			b.Error(err)
		} else {
			toLeader = append(toLeader, d)
		}
	}
	slices.Sort(viaSearch)
	slices.Sort(toLeader)
	b.Logf("bookings through the search server (delegate %s): %v", delegate, viaSearch)
	b.Logf("bookings straight to %s, whose etcd member leads: %v", leader, toLeader)
	calm := a.wanSnapshot()

	// A kill under a steady load of searches never asked before.
	loadQueries := queries[coldQueries:]
	load := startSteadyLoad(base, loadQueries, want, 200*time.Millisecond)
	framework.Eventually(b, 30*time.Second, "searches under way before the kill", func() error {
		if n := len(load.since(time.Time{})); n < 10 {
			return fmt.Errorf("%d answers so far", n)
		}
		return nil
	})
	// The victim is the machine whose etcd member leads (not the delegate, see above): its death
	// also costs the alliance an election, which must cost no search and no other session.
	victim := calm.leader
	killed := time.Now()
	a.kill(victim)
	settled := a.waitSettled(2 * time.Minute)
	after := time.Now()
	framework.Eventually(b, 30*time.Second, "searches after the placement settled", func() error {
		if n := len(load.since(after)); n < 10 {
			return fmt.Errorf("%d answers since", n)
		}
		return nil
	})
	load.finish()
	answers := load.since(killed)
	counts, loadP50, loadP99, bad := summarize(answers)
	if len(answers) > len(loadQueries) {
		b.Logf("the load ran out of new queries: %d searches for %d queries, some answered from the cache", len(answers), len(loadQueries))
	}
	b.Logf("kill -9 %s (the etcd leader): placement settled %v later; %d searches since the kill: %d complete, %d incomplete, %d wrong, %d failed; p50 %v, p99 %v; %v",
		victim, settled.Round(time.Millisecond), len(answers), counts[answerComplete], counts[answerIncomplete],
		counts[answerWrong], counts[answerError], loadP50, loadP99, bad)
	if counts[answerWrong] > 0 {
		b.Errorf("%d answers differ from the reference after the kill: %v", counts[answerWrong], bad)
	}
	killedState := a.wanSnapshot()
	b.StopTimer()

	lost, lostOnKill := 0, 0
	for n, s := range quiet.sessions {
		if calm.sessions[n] != s {
			lost++
			b.Logf("%s lost its session while nothing failed: lease %s, then %q", n, s, calm.sessions[n])
		}
		if n != victim && killedState.sessions[n] != calm.sessions[n] {
			lostOnKill++
			b.Logf("%s lost its session when %s was killed: lease %s, then %q", n, victim, calm.sessions[n], killedState.sessions[n])
		}
	}
	var slow []string
	for _, n := range a.order {
		if log, err := os.ReadFile(a.machines[n].proc.Log); err == nil {
			slow = append(slow, fmt.Sprintf("%s %d", n, bytes.Count(log, []byte("apply request took too long"))))
		}
	}
	b.Logf("etcd's \"apply request took too long\" warnings (a linearizable request waits a round trip): %s", strings.Join(slow, ", "))
	b.Logf("raft term %d at the start, %d before the kill, %d after it (leader %s, then %s, then %s)",
		quiet.term, calm.term, killedState.term, quiet.leader, calm.leader, killedState.leader)

	b.ReportMetric(float64(rtt.Microseconds())/1000, "rtt-ms")
	b.ReportMetric(inRTT(cold[len(cold)/2]), "search-cold-rtt")
	b.ReportMetric(inRTT(warm[len(warm)/2]), "search-warm-rtt")
	if len(viaSearch) > 0 {
		b.ReportMetric(inRTT(viaSearch[len(viaSearch)/2]), "booking-p50-rtt")
	}
	if len(toLeader) > 0 {
		b.ReportMetric(inRTT(toLeader[len(toLeader)/2]), "booking-leader-p50-rtt")
	}
	b.ReportMetric(float64(counts[answerIncomplete]), "incomplete-on-kill")
	b.ReportMetric(float64(counts[answerError]), "failed-on-kill")
	b.ReportMetric(inRTT(loadP50), "search-on-kill-p50-rtt")
	b.ReportMetric(settled.Seconds(), "kill-settled-s")
	b.ReportMetric(float64(calm.term-quiet.term), "elections-quiet")
	b.ReportMetric(float64(lost), "sessions-lost-quiet")
	b.ReportMetric(float64(killedState.term-calm.term), "elections-on-kill")
	b.ReportMetric(float64(lostOnKill), "sessions-lost-on-kill")
	b.ReportMetric(hedgedAfter-hedged, "delegate-hedges")
	b.ReportMetric(alternatesAfter-alternates, "search-alternates")
}
