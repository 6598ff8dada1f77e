package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/search"
)

// TestNothingLeaksRoundAfterRound runs the same round of work six times against a secure
// alliance of three machines (two copies of every seller, the default) behind a search server,
// and checks that after every round each process comes back to the goroutines and open files it
// had after the second (less those of the connections it keeps open between requests, whose
// number depends on the round before: see goroutineStacks.pooled): a goroutine or a file left
// behind per request, per hedge, per abandoned call or per booking would grow round after round,
// and a daemon that runs for months would run out. When one does not come back, the test names
// the stacks whose goroutines grew and the open files that did (/proc), and keeps both
// goroutine profiles.
//
// A round is what a server sees in a busy minute, in a few seconds: 16 clients (half over
// HTTP/1.1, half over HTTP/2) search whole answers (checked against the reference: complete and
// equal, or incomplete and saying so), pages, and searches they abandon before the answer or
// halfway through reading it, while a machine that is not the delegate is paused (its calls
// hedged to the other copy, the losers cancelled) and then resumed; then a booking cancelled, a
// hold confirmed and cancelled, and a hold left to expire. The membership watch runs throughout.
func TestNothingLeaksRoundAfterRound(t *testing.T) {
	searchPprof := freeAddr(t)
	w := newBookingWorld(t, map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}}, allianceOpts{pprof: true}, nil,
		"--pprof", searchPprof)
	booked := directFlights(w.a.data, "LY", 1)[0]
	w.waitBookable(booked, 90*time.Second)
	const rounds, perRound = 6, 16 // perRound: queries of a round, new in each, so the caches do not spare the holders
	w.a.readyQueries(w.base, 1)
	queries := busyQueries(w.a.activeData(), 1+rounds*perRound)[1:] // not asked yet: in no cache
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

	var baseline *levelSnapshot
	for round := range rounds {
		r := leakRound{w: w, clients: clients, queries: queries[round*perRound : (round+1)*perRound], want: want, booked: booked}
		r.run(t, round)
		for _, c := range clients {
			c.CloseIdleConnections()
		}
		switch {
		case round == 0: // the first two rounds fill the pools that then stay, each with another machine paused
		case baseline == nil:
			baseline = baselineOf(t, procs)
			t.Logf("after round %d: %v", round, baseline.levels)
		default:
			baseline.expectBack(t, fmt.Sprintf("after round %d", round))
		}
	}
}

// leakRound is one round of TestNothingLeaksRoundAfterRound's work.
type leakRound struct {
	w       *bookingWorld
	clients []*http.Client
	queries []query
	want    map[string][]string
	booked  flight.Flight // the flight the round books, cancels and holds seats of
}

func (r leakRound) run(t *testing.T, round int) {
	t.Helper()
	a := r.w.a
	delegate := a.actingDelegate(a.order)
	if delegate == "" {
		t.Fatalf("round %d: no machine names the delegate", round)
	}
	others := slices.DeleteFunc(slices.Clone(a.order), func(n string) bool { return n == delegate })
	victim := others[round%len(others)] // the first rounds pause each in turn: every pool is full
	calls, hedges := r.holderCalls(t)
	a.pause(victim)
	counts := r.searches()
	a.resume(victim)
	callsAfter, hedgesAfter := r.holderCalls(t)
	summary := fmt.Sprintf("round %d (%s paused, delegate %s): whole answers and pages: %d complete, %d incomplete, "+
		"%d wrong, %d errors; holder calls %.0f, hedges %.0f", round, victim, delegate, counts[answerComplete],
		counts[answerIncomplete], counts[answerWrong], counts[answerError], callsAfter-calls, hedgesAfter-hedges)
	t.Log(summary)
	if counts[answerWrong] > 0 || counts[answerError] > 0 {
		t.Fatal(summary)
	}
	if callsAfter == calls {
		t.Fatalf("%s: the round asked no holder (its queries were cached), so it did not test their calls", summary)
	}
	r.bookings(t, round)
}

// holderCalls sums the holder calls and the hedges sent of every machine.
func (r leakRound) holderCalls(t *testing.T) (calls, hedges float64) {
	t.Helper()
	for _, m := range r.w.a.machines {
		calls += metricSum(t, m.url()+"/metrics", "flightalliance_airline_holder_calls_total")
		hedges += metricSum(t, m.url()+"/metrics", "flightalliance_airline_hedges_sent_total")
	}
	return calls, hedges
}

// searches runs 16 clients of 12 searches each, four kinds in turn, and counts the outcomes of
// the whole answers (the others' only check is that the servers survive them).
func (r leakRound) searches() map[chaosOutcome]int {
	counts := map[chaosOutcome]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for c := range 16 {
		client := r.clients[c%len(r.clients)]
		wg.Go(func() {
			for i := range 12 {
				q := r.queries[(c*12+i)%len(r.queries)]
				var outcome chaosOutcome
				switch i % 4 {
				case 0:
					outcome = r.whole(client, q)
				case 1:
					outcome = r.page(client, q)
				case 2: // abandoned before the answer
					abandon(client, searchURL(r.w.base, q), time.Duration(1+rand.IntN(25))*time.Millisecond, 0)
					continue
				case 3: // abandoned halfway through reading it
					abandon(client, searchURL(r.w.base, q), 10*time.Second, 4096)
					continue
				}
				mu.Lock()
				counts[outcome]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return counts
}

// whole asks for a whole answer and classifies it against the reference.
func (r leakRound) whole(client *http.Client, q query) chaosOutcome {
	ans, err := getAnswer(client, searchURL(r.w.base, q))
	switch {
	case err != nil:
		return answerError
	case !ans.Complete:
		return answerIncomplete
	case !slices.Equal(renderedTrips(ans), r.want[q.String()]):
		return answerWrong
	}
	return answerComplete
}

// page asks for the first 20 trips and checks they are the reference's first 20.
func (r leakRound) page(client *http.Client, q query) chaosOutcome {
	ans, err := getAnswer(client, searchURL(r.w.base, q)+"&limit=20")
	want := r.want[q.String()]
	switch {
	case err != nil:
		return answerError
	case !ans.Complete:
		return answerIncomplete
	case !slices.Equal(renderedTrips(ans), want[:min(20, len(want))]):
		return answerWrong
	}
	return answerComplete
}

// getAnswer asks the search server with client and decodes its answer (an error unless 200).
func getAnswer(client *http.Client, url string) (search.Answer, error) {
	var ans search.Answer
	resp, err := client.Get(url)
	if err != nil {
		return ans, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return ans, fmt.Errorf("GET %s: %s: %s", url, resp.Status, body)
	}
	return ans, json.NewDecoder(resp.Body).Decode(&ans)
}

// abandon sends a search and gives up on it after wait, or after reading readBytes of its body.
func abandon(client *http.Client, url string, wait time.Duration, readBytes int64) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		panic(err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return
	}
	io.CopyN(io.Discard, resp.Body, readBytes)
	resp.Body.Close() // unread: the connection cannot be kept, and the server's write fails
}

// bookings books a seat and cancels it, holds one and confirms and cancels it, and holds one
// for 2 s and waits until it has expired: the round ends with the seats it began with.
func (r leakRound) bookings(t *testing.T, round int) {
	t.Helper()
	w, f := r.w, r.booked
	booked := w.mustBook(newKey(fmt.Sprintf("leak%d", round)), oneLeg(f, 1), 30*time.Second)
	w.mustCancel(booked.ID)
	hold := bookRequest{Alliance: w.a.name, Legs: []legRef{refOf(f)}, Seats: 1, Hold: "1m"}
	held := w.mustBook(newKey(fmt.Sprintf("leakhold%d", round)), hold, 30*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if ans := w.api.confirm(ctx, held.ID); ans.status != http.StatusOK {
		t.Fatalf("confirm %s: %v", held.ID, ans)
	}
	w.mustCancel(held.ID)
	hold.Hold = "2s"
	expiring := w.mustBook(newKey(fmt.Sprintf("leakexpiring%d", round)), hold, 30*time.Second)
	w.waitExpired(t, expiring.ID)
	if got := w.booked(f); got != 0 {
		t.Fatalf("round %d: %d seats of %s booked after every booking was cancelled or expired", round, got, f.Number)
	}
}
