package integration

// The steps of BenchmarkAcrossContinents: one timed search, the flights to book, and the state of
// the alliance (term, leader, sessions) compared before and after each part.

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"flightalliance/alliance/flight"
	"flightalliance/search"
	"flightalliance/tests/framework"
)

// timedSearch sends one search through the search server and returns how long it took; an
// answer that is not complete and equal to the reference fails the benchmark.
func timedSearch(b *testing.B, base string, q query, want []string) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var ans search.Answer
	start := time.Now()
	err := getJSON(ctx, searchURL(base, q), &ans)
	took := time.Since(start)
	switch {
	case err != nil:
		b.Fatalf("search %v: %v", q, err)
	case !ans.Complete:
		b.Fatalf("search %v: incomplete: %+v", q, ans.Alliances)
	case !slices.Equal(renderedTrips(ans), want):
		b.Fatalf("search %v: %d trips, the reference has %d", q, len(ans.Trips), len(want))
	}
	return took
}

// wanBookingFlights are n flights of the test date with seats for sale, the sellers taken in
// turn, so that a booking finds its flight on the machine it reaches as often as a client's would.
func wanBookingFlights(data map[string][]flight.Flight, n int) []flight.Flight {
	sellers := slices.Sorted(maps.Keys(data))
	bySeller := map[string][]flight.Flight{}
	for _, s := range sellers {
		for _, f := range data[s] {
			if flight.DateOf(f.Departure) == testDate && f.Seats > 0 && len(bySeller[s]) < n {
				bySeller[s] = append(bySeller[s], f)
			}
		}
	}
	var out []flight.Flight
	for i := 0; len(out) < n && i < n*len(sellers); i++ {
		if s := bySeller[sellers[i%len(sellers)]]; i/len(sellers) < len(s) {
			out = append(out, s[i/len(sellers)])
		}
	}
	return out
}

// wanState is what the benchmark compares before and after each part: the raft term (it grows
// with every election), the etcd leader, and every live machine's session.
type wanState struct {
	term     uint64
	leader   string
	sessions map[string]string
}

func (a *testAlliance) wanSnapshot() wanState {
	a.t.Helper()
	st := wanState{sessions: map[string]string{}}
	cli := a.etcd()
	defer cli.Close()
	for _, n := range a.live() {
		m := a.machines[n]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp, err := cli.Status(ctx, m.scheme+m.client)
		cancel()
		if err != nil {
			a.t.Fatalf("etcd status of %s: %v", n, err)
		}
		st.term = max(st.term, resp.RaftTerm)
		s, err := a.status(n)
		if err != nil {
			a.t.Fatalf("status of %s: %v", n, err)
		}
		st.sessions[n] = s.Session
		if s.Member != nil && s.Member.IsLeader {
			st.leader = n
		}
	}
	if st.leader == "" {
		a.t.Fatalf("no machine's etcd member leads")
	}
	return st
}

// hedgeCounts reads the sellers the delegate has hedged and the alternates the search server has
// asked so far, from their /metrics.
func (a *testAlliance) hedgeCounts(base, delegate string) (hedged, alternates float64) {
	a.t.Helper()
	return metricSum(a.t, a.machines[delegate].url()+"/metrics", "flightalliance_airline_hedged_sellers_total"),
		metricSum(a.t, base+"/metrics", "search_alternate_calls_total")
}

// metricSum is the sum of every sample of a Prometheus metric at url (0 when it has none yet).
func metricSum(t testing.TB, url, name string) float64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	sum := 0.0
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		line := lines.Text()
		if !strings.HasPrefix(line, name) || (len(line) > len(name) && line[len(name)] != ' ' && line[len(name)] != '{') {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			t.Fatalf("%s: %q: %v", url, line, err)
		}
		sum += v
	}
	if err := lines.Err(); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return sum
}

// moveEtcdLeaderOff moves the etcd leadership away from machine, if its member leads, to the
// first other live machine, and waits until the others see the new leader.
func (a *testAlliance) moveEtcdLeaderOff(machine string) {
	a.t.Helper()
	st, err := a.status(machine)
	if err != nil {
		a.t.Fatal(err)
	}
	if st.Member == nil || !st.Member.IsLeader {
		return
	}
	a.moveEtcdLeader(machine, slices.DeleteFunc(a.live(), func(n string) bool { return n == machine })[0])
}

// moveEtcdLeaderTo moves the etcd leadership to machine from whichever member leads, and waits
// until every live machine sees it there. A move refused because the leadership changed
// meanwhile is asked again of the new leader.
func (a *testAlliance) moveEtcdLeaderTo(machine string) {
	a.t.Helper()
	framework.Eventually(a.t, 60*time.Second, "the etcd leadership on "+machine, func() error {
		leader, err := a.soleEtcdLeader()
		switch {
		case err != nil:
			return err
		case leader == machine:
			return nil
		}
		if err := a.askEtcdLeaderMove(leader, machine); err != nil {
			return err
		}
		return fmt.Errorf("asked %s to hand the leadership over; not seen yet", leader)
	})
}

// soleEtcdLeader is the live machine whose member leads, when exactly one says so.
func (a *testAlliance) soleEtcdLeader() (string, error) {
	var leaders []string
	for _, n := range a.live() {
		st, err := a.status(n)
		if err != nil || st.Member == nil {
			return "", fmt.Errorf("%s: %+v, %v", n, st.Member, err)
		}
		if st.Member.IsLeader {
			leaders = append(leaders, n)
		}
	}
	if len(leaders) != 1 {
		return "", fmt.Errorf("machines whose member says it leads: %v", leaders)
	}
	return leaders[0], nil
}

// moveEtcdLeader asks the member of from, which leads, to hand the leadership to the member of to,
// and waits until every live machine sees it there.
func (a *testAlliance) moveEtcdLeader(from, to string) {
	a.t.Helper()
	if err := a.askEtcdLeaderMove(from, to); err != nil {
		a.t.Fatal(err)
	}
	framework.Eventually(a.t, 30*time.Second, "the etcd leadership on "+to, func() error {
		for _, n := range a.live() {
			if st, err := a.status(n); err != nil || st.Member == nil || st.Member.IsLeader != (n == to) {
				return fmt.Errorf("%s: %+v, %v", n, st.Member, err)
			}
		}
		return nil
	})
}

// askEtcdLeaderMove asks the member of from to hand the leadership to the member of to (etcd's
// MoveLeader, which only a leader takes).
func (a *testAlliance) askEtcdLeaderMove(from, to string) error {
	m := a.machines[from]
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{m.scheme + m.client}, DialTimeout: 5 * time.Second,
		TLS: framework.TesterTLS, Logger: zap.NewNop()})
	if err != nil {
		return err
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	members, err := cli.MemberList(ctx)
	if err != nil {
		return err
	}
	var id uint64
	for _, mb := range members.Members {
		if mb.Name == to {
			id = mb.ID
		}
	}
	if _, err := cli.MoveLeader(ctx, id); err != nil {
		return fmt.Errorf("moving etcd's leadership from %s to %s: %v", from, to, err)
	}
	return nil
}
