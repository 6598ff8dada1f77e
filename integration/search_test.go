package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/search"
	"flightalliance/tests/framework"
)

// renderedTrips writes each trip of a search answer as "price FLIGHT>FLIGHT", the form the
// reference computes.
func renderedTrips(a search.Answer) []string {
	out := make([]string, len(a.Trips))
	for i, t := range a.Trips {
		names := make([]string, len(t.Legs))
		for j, l := range t.Legs {
			names[j] = l.Flight
		}
		out[i] = t.Price + " " + strings.Join(names, ">")
	}
	return out
}

func searchURL(base string, q query) string {
	v := url.Values{"src": {q.src}, "dst": {q.dst}, "date": {q.date.String()}}
	if len(q.sellers) > 0 {
		v.Set("servers", strings.Join(q.sellers, ","))
	}
	return base + "/Services/FlightsSearch/flight?" + v.Encode()
}

// checkSearch asks the search server and compares with the reference over all alliances.
func checkSearch(base string, alliances []*testAlliance, queries []query) error {
	var datas []map[string][]flight.Flight
	for _, a := range alliances {
		datas = append(datas, a.activeData())
	}
	for _, q := range queries {
		var ans search.Answer
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := getJSON(ctx, searchURL(base, q), &ans)
		cancel()
		if err != nil {
			return fmt.Errorf("%v: %w", q, err)
		}
		if !ans.Complete || len(ans.Alliances) != len(alliances) {
			return fmt.Errorf("%v: complete=%v alliances=%+v", q, ans.Complete, ans.Alliances)
		}
		want := referenceAcross(datas, q, 30*time.Minute)
		if got := renderedTrips(ans); !slices.Equal(got, want) {
			return fmt.Errorf("%v: got %d trips %v…, want %d trips %v…", q, len(got), head(got), len(want), head(want))
		}
	}
	return nil
}

// TestSearchAcrossAlliances runs a search server with two alliances registered by their
// delegates, checks REST answers and the flights client against the brute-force reference, and
// measures how long the answers stay incomplete after the delegate of one alliance is killed.
func TestSearchAcrossAlliances(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir, "--registration-ttl", "10s", "--delegate-timeout", "3s")
	star := newAlliance(t, "star", map[string][]string{"a1": {"LY"}, "a2": {"UA"}, "a3": {"LH"}}, base)
	sky := newAlliance(t, "sky", map[string][]string{"b1": {"AF"}, "b2": {"KE"}}, base)
	star.waitSettled(90 * time.Second)
	sky.waitSettled(90 * time.Second)

	var queries []query
	for _, q := range busyQueries(mergeData(star.activeData(), sky.activeData()), 3) {
		queries = append(queries, q, query{src: q.src, dst: q.dst, date: q.date, sellers: []string{"LY", "AF"}})
	}
	both := []*testAlliance{star, sky}
	framework.Eventually(t, 30*time.Second, "both alliances answer through the search server", func() error {
		return checkSearch(base, both, queries)
	})

	t.Run("flights client", func(t *testing.T) {
		q := queries[0]
		out, err := exec.Command(framework.Bin("flights"), "search", "--server", base, "--ca", framework.CAFile, "--from", q.src, "--to", q.dst,
			"--date", q.date.String(), "--json").Output()
		if err != nil {
			t.Fatalf("flights search --json: %v", err)
		}
		var ans search.Answer
		if err := json.Unmarshal(out, &ans); err != nil {
			t.Fatalf("flights search --json printed %q: %v", head([]string{string(out)}), err)
		}
		want := referenceAcross([]map[string][]flight.Flight{star.activeData(), sky.activeData()}, q, 30*time.Minute)
		if got := renderedTrips(ans); !ans.Complete || !slices.Equal(got, want) {
			t.Fatalf("flights search: complete=%v, %d trips, want %d", ans.Complete, len(got), len(want))
		}
		table, err := exec.Command(framework.Bin("flights"), "search", "--server", base, "--ca", framework.CAFile, "--from", q.src, "--to", q.dst,
			"--date", q.date.String()).Output()
		if err != nil {
			t.Fatalf("flights search (table): %v\n%s", err, table)
		}
		if len(want) > 0 && !strings.Contains(string(table), strings.Fields(want[0])[0]) {
			t.Fatalf("table does not show the cheapest price %s:\n%s", strings.Fields(want[0])[0], table)
		}
	})

	t.Run("delegate killed", func(t *testing.T) {
		star.kill("a1")
		took := framework.Eventually(t, 60*time.Second, "answers complete again after the delegate's death", func() error {
			return checkSearch(base, both, queries)
		})
		t.Logf("answers complete and correct %v after kill -9 of star's delegate", took)
		if d := star.delegate(); d != "a2" {
			t.Fatalf("star's delegate is %s, want a2", d)
		}
	})
}

func mergeData(ds ...map[string][]flight.Flight) map[string][]flight.Flight {
	out := map[string][]flight.Flight{}
	for _, d := range ds {
		for k, v := range d {
			out[k] = v
		}
	}
	return out
}
