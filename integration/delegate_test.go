package integration

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"flightalliance/search"
	"flightalliance/tests/framework"
)

// registration reads the search server's registration of alliance name.
func registration(base, name string) (search.Registration, error) {
	var list search.RegistrationList
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := getJSON(ctx, base+"/Services/FlightsSearchReg/", &list); err != nil {
		return search.Registration{}, err
	}
	for _, r := range list.Registrations {
		if r.Name == name {
			return r, nil
		}
	}
	return search.Registration{}, fmt.Errorf("%s is not registered: %+v", name, list.Registrations)
}

// waitRegistered waits until the search server's registration of the alliance names machine as
// its delegate, with the other live machines (two at least, when there are) as alternates.
func (a *testAlliance) waitRegistered(base, machine string, timeout time.Duration) {
	a.t.Helper()
	want := a.machines[machine].url() + "/Services/SellerService"
	alternates := min(len(a.live())-1, 2)
	framework.Eventually(a.t, timeout, fmt.Sprintf("%s registered as delegate with %d alternates", machine, alternates), func() error {
		r, err := registration(base, a.name)
		switch {
		case err != nil:
			return err
		case r.URI != want || len(r.Alternates) < alternates || r.Stale:
			return fmt.Errorf("registration %+v, want %s with %d alternates", r, want, alternates)
		}
		return nil
	})
}

// A paused delegate and a killed delegate, under steady load: the search server asks the
// registered alternates, so no answer is incomplete and none is wrong.
func TestDelegatePauseAndKillUnderLoad(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--hedge-delay", "300ms", "--delegate-timeout", "4s")
	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA", "LH"}, "m3": {"AF"}}, base)
	a.waitSettled(120 * time.Second)
	queries, want := a.readyQueries(base, 4)
	a.waitRegistered(base, "m1", 30*time.Second)
	load := startSteadyLoad(base, queries, want, 50*time.Millisecond)
	defer load.finish()

	// SIGSTOP of the delegate, until m2 has taken over (past m1's lease), then SIGCONT.
	paused := time.Now()
	a.pause("m1")
	a.waitRegistered(base, "m2", 30*time.Second)
	a.resume("m1")
	a.waitSettled(90 * time.Second)
	a.waitRegistered(base, "m1", 30*time.Second)

	// kill -9 of the delegate, until the alliance has settled without it and m2 registered.
	killed := time.Now()
	a.kill("m1")
	a.waitSettled(90 * time.Second)
	a.waitRegistered(base, "m2", 30*time.Second)
	settled := time.Now()
	framework.Eventually(t, 30*time.Second, "searches answered after the kill settled", func() error {
		if n := len(load.since(settled)); n < 20 {
			return fmt.Errorf("%d answers", n)
		}
		return nil
	})

	all := load.finish()
	for _, phase := range []struct {
		name     string
		from, to time.Time
	}{{"delegate paused and back", paused, killed}, {"delegate killed", killed, time.Now()}} {
		var as []timedAnswer
		for _, x := range all {
			if !x.at.Before(phase.from) && x.at.Before(phase.to) {
				as = append(as, x)
			}
		}
		counts, p50, p99, bad := summarize(as)
		t.Logf("%s: %d searches: %d complete, %d incomplete, %d wrong, %d errors; latency p50 %v, p99 %v",
			phase.name, len(as), counts[answerComplete], counts[answerIncomplete], counts[answerWrong], counts[answerError],
			p50.Round(time.Millisecond), p99.Round(time.Millisecond))
		if len(as) == 0 || counts[answerComplete] != len(as) {
			t.Errorf("%s: not every answer complete and correct: %v", phase.name, bad)
		}
	}
}

// An alliance whose delegate stops refreshing stays in every answer, incomplete and named as
// silent, and comes back complete when a delegate registers again; a search server that knows
// no alliance answers 503.
func TestSilentAllianceIsReportedAndNoAllianceIs503(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "3s")
	q := searchURL(base, query{src: "TLV", dst: "JFK", date: testDate})
	framework.Eventually(t, 30*time.Second, "an empty search server answers 503", func() error {
		code, body, err := get(q)
		if err != nil {
			return err
		}
		if code != http.StatusServiceUnavailable || !strings.Contains(body, "no alliance") {
			return fmt.Errorf("%d %s, want 503 naming that no alliance is known", code, body)
		}
		return nil
	})

	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}}, base)
	a.waitSettled(120 * time.Second)
	queries := busyQueries(a.activeData(), 2)
	framework.Eventually(t, 30*time.Second, "answers through the search server", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})

	// Both machines paused: nobody refreshes the registration, and it goes stale.
	a.pause("m1")
	a.pause("m2")
	var silent search.Answer
	framework.Eventually(t, 30*time.Second, "the silent alliance reported incomplete", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := getJSON(ctx, searchURL(base, queries[0]), &silent); err != nil {
			return err
		}
		if silent.Complete || len(silent.Alliances) != 1 || !strings.Contains(silent.Alliances[0].Error, "silent since") {
			return fmt.Errorf("answer: complete=%v alliances=%+v", silent.Complete, silent.Alliances)
		}
		return nil
	})
	if len(silent.Trips) != 0 || silent.Alliances[0].Name != "star" {
		t.Fatalf("stale alliance's answer: %+v", silent)
	}
	a.resume("m1")
	a.resume("m2")
	framework.Eventually(t, 60*time.Second, "the alliance complete again", func() error {
		return checkSearch(base, []*testAlliance{a}, queries)
	})
}

// get GETs url and returns the status and body.
func get(url string) (int, string, error) {
	resp, err := httpClient.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b), err
}
