package integration

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// TestAHolderWhoseSessionEndedStillAnswers: a seller's two holders fail at once — one is killed,
// the other's etcd member is cut off from the alliance, so its session ends and its entry
// vanishes, while the machine itself runs on and its SOAP port stays reachable. No live machine
// holds the seller, yet the delegate's answers stay complete and correct throughout: it asks the
// departed holder, naming the version its last entry gave (the delegate's
// departed_holder_calls_total counts the calls). The alliance is secure, and the searches go
// through a search server. Healed, the cut machine comes back and the placement settles.
func TestAHolderWhoseSessionEndedStillAnswers(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir)
	a := newProxiedAlliance(t, "star", map[string][]string{
		"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH"}, "m4": {"AF"}, "m5": {"BA"},
	}, nil, base)
	a.waitSettled(90 * time.Second)
	queries, want := a.readyQueries(base, 3)
	seller, cut, killed := a.sellerHeldAwayFrom("m1")
	t.Logf("%s is held by %s and %s: cutting %s's etcd off, killing %s", seller, cut, killed, cut, killed)

	load := startSteadyLoad(base, queries, want, 100*time.Millisecond)
	a.cutEtcd(cut)
	a.kill(killed)
	var gone time.Time
	framework.Eventually(t, 60*time.Second, fmt.Sprintf("%s's and %s's entries gone from the tree", cut, killed), func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		st, err := a.readTree(ctx)
		if err != nil {
			return err
		}
		for _, n := range []string{cut, killed} {
			if _, ok := st.machines[n]; ok {
				return fmt.Errorf("%s still has an entry", n)
			}
		}
		gone = time.Now()
		return nil
	})
	framework.Eventually(t, 30*time.Second, "20 searches since the entries vanished", func() error {
		if n := len(load.since(gone)); n < 20 {
			return fmt.Errorf("%d so far", n)
		}
		return nil
	})
	answers := load.finish()
	counts, _, _, bad := summarize(answers)
	after := len(slices.DeleteFunc(slices.Clone(answers), func(x timedAnswer) bool { return x.at.Before(gone) }))
	t.Logf("%d searches since the faults, %d of them after the entries vanished: %d complete", len(answers), after, counts[answerComplete])
	if counts[answerComplete] != len(answers) {
		t.Errorf("not every answer complete and correct with %s's only running holder out of the view: %v", seller, bad)
	}
	if n := metricSum(t, a.machines["m1"].url()+"/metrics", "flightalliance_airline_departed_holder_calls_total"); n == 0 {
		t.Errorf("the delegate asked no departed holder (departed_holder_calls_total 0)")
	}

	a.heal(cut)
	took := a.waitSettled(90 * time.Second)
	t.Logf("%s back and placement settled %v after the heal", cut, took.Round(time.Millisecond))
}

// sellerHeldAwayFrom picks a seller neither of whose two holders is machine, and names them.
func (a *testAlliance) sellerHeldAwayFrom(machine string) (seller, first, second string) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	st, err := a.readTree(ctx)
	if err != nil {
		a.t.Fatal(err)
	}
	for _, s := range a.sellers() {
		var holders []string
		for m := range st.holders[s] {
			holders = append(holders, m)
		}
		slices.Sort(holders)
		if len(holders) == 2 && !slices.Contains(holders, machine) {
			return s, holders[0], holders[1]
		}
	}
	a.t.Fatalf("no seller held by two machines other than %s: %v", machine, st.holders)
	return "", "", ""
}
