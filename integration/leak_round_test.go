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

// Each round's clients, and the searches each sends.
const leakClients, leakSearchesPerClient = 16, 12

// maxLeakPause is the longest a round keeps its machine paused: well within its session's TTL
// (3 s), so that no round moves a seller or the delegate, and every round is the same work.
const maxLeakPause = 2 * time.Second

// leakRound is one round of TestNothingLeaksRoundAfterRound's work.
type leakRound struct {
	w       *bookingWorld
	clients []*http.Client
	queries []query
	want    map[string][]string
	booked  flight.Flight // the flight the round books, cancels and holds seats of
}

// run runs the round with victim paused during its searches (maxLeakPause at most), checks the
// answers and that the delegate stayed and asked the holders, and returns the hedges the machines
// sent.
func (r leakRound) run(t *testing.T, round int, delegate, victim string) (hedges float64) {
	t.Helper()
	a := r.w.a
	calls, hedgesBefore := r.holderCalls(t)
	a.moveEtcdLeaderOff(victim) // a paused etcd leader may end the other machines' sessions (etcd#15247)
	a.pause(victim)
	paused := time.Now()
	done := make(chan map[chaosOutcome]int, 1)
	go func() { done <- r.searches() }()
	var counts map[chaosOutcome]int
	select {
	case counts = <-done:
	case <-time.After(maxLeakPause):
	}
	a.resume(victim)
	pausedFor := time.Since(paused)
	if counts == nil {
		counts = <-done
	}
	callsAfter, hedgesAfter := r.holderCalls(t)
	summary := fmt.Sprintf("round %d (%s paused %v, delegate %s): whole answers and pages: %d complete, %d incomplete, "+
		"%d wrong, %d errors; holder calls %.0f, hedges %.0f", round, victim, pausedFor.Round(time.Millisecond), delegate,
		counts[answerComplete], counts[answerIncomplete], counts[answerWrong], counts[answerError], callsAfter-calls,
		hedgesAfter-hedgesBefore)
	t.Log(summary)
	if counts[answerWrong] > 0 || counts[answerError] > 0 || counts[answerIncomplete] > 0 {
		// Every seller has a live copy the delegate's hedges reach: every answer is complete.
		t.Fatal(summary)
	}
	if callsAfter-calls < float64(len(r.queries)) {
		t.Fatalf("%s: fewer holder calls than new pairs of airports, so the round did not test their calls", summary)
	}
	if now := a.delegate(); now != delegate {
		t.Fatalf("%s: the delegate moved to %s (the processes' levels are compared one by one)", summary, now)
	}
	r.bookings(t, round)
	return hedgesAfter - hedgesBefore
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

// searches runs leakClients clients of leakSearchesPerClient searches each, of four kinds in
// turn (each query gets every kind), and counts the outcomes of the whole answers and pages (the
// abandoned ones' only check is that the servers survive them).
func (r leakRound) searches() map[chaosOutcome]int {
	counts := map[chaosOutcome]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for c := range leakClients {
		client := r.clients[c%len(r.clients)]
		wg.Go(func() {
			for i := range leakSearchesPerClient {
				q := r.queries[(c*leakSearchesPerClient+i)%len(r.queries)]
				var outcome chaosOutcome
				switch (c + i) % 4 {
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
	resp.Body.Close() // unread: HTTP/1.1 closes the connection, HTTP/2 resets the stream
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
