package integration

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"flightalliance/soap"
	"flightalliance/tests/framework"
)

// status is the part of GET /status the tests read.
type status struct {
	Name     string   `json:"name"`
	Zone     string   `json:"zone"`
	Replicas int      `json:"replicas"`
	Delegate string   `json:"delegate"`
	Acting   bool     `json:"acting_delegate"`
	Session  string   `json:"session"`
	Joining  bool     `json:"joining"`
	Serving  []string `json:"serving"`
	Round    struct {
		ID    int64  `json:"id"`
		Phase string `json:"phase"`
	} `json:"round"`
	Member *struct {
		IsLeader bool
	} `json:"member"`
	View []viewMachine `json:"view"`
}

func (a *testAlliance) status(name string) (status, error) {
	var st status
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	err := getJSON(ctx, a.machines[name].url()+"/status", &st)
	return st, err
}

// delegate asks every live machine who the delegate is and returns it once they all agree on a
// live one.
func (a *testAlliance) delegate() string {
	a.t.Helper()
	var agreed string
	framework.Eventually(a.t, 30*time.Second, "machines agree on the delegate", func() error {
		seen := map[string]bool{}
		for _, n := range a.live() {
			st, err := a.status(n)
			if err != nil {
				return err
			}
			seen[st.Delegate] = true
			agreed = st.Delegate
		}
		if len(seen) != 1 || agreed == "" {
			return fmt.Errorf("delegates seen: %v", slices.Sorted(maps.Keys(seen)))
		}
		if !slices.Contains(a.live(), agreed) {
			return fmt.Errorf("the machines agree on %s, which is down (its lease has not expired yet)", agreed)
		}
		return nil
	})
	return agreed
}

// getTrips calls SellerService.getTrips on a machine.
func (a *testAlliance) getTrips(ctx context.Context, machine string, q query) (*soap.GetTripsResponse, error) {
	c := soap.NewSellerClient(a.machines[machine].url()+"/Services/SellerService", soap.ClientOptions{Timeout: 10 * time.Second, HTTPClient: httpClient})
	return c.GetTrips(ctx, soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String(), Sellers: q.sellers})
}

// viewMachine is a machine of a /status view.
type viewMachine struct {
	Name string `json:"name"`
}

// leaderAndSessions waits until every live machine has a session and one says its etcd member
// leads; it returns that machine and every machine's session (its lease, as /status names it).
func (a *testAlliance) leaderAndSessions(timeout time.Duration) (leader string, sessions map[string]string) {
	a.t.Helper()
	sessions = map[string]string{}
	framework.Eventually(a.t, timeout, "an etcd leader and every machine's session", func() error {
		leader = ""
		for _, n := range a.live() {
			st, err := a.status(n)
			if err != nil || st.Session == "" || st.Member == nil {
				return fmt.Errorf("%s: session %q, %v", n, st.Session, err)
			}
			sessions[n] = st.Session
			if st.Member.IsLeader {
				leader = n
			}
		}
		if leader == "" {
			return fmt.Errorf("no machine says its member leads")
		}
		return nil
	})
	return leader, sessions
}
