package integration

import (
	"context"
	"fmt"
	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"slices"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// twentyByTwoHundred is 20 machines m01…m20 bringing 10 sellers each (S001…S200).
func twentyByTwoHundred() map[string][]string {
	out := map[string][]string{}
	for m := range 20 {
		for s := range 10 {
			name := fmt.Sprintf("m%02d", m+1)
			out[name] = append(out[name], fmt.Sprintf("S%03d", m*10+s+1))
		}
	}
	return out
}

// etcdMembers lists the etcd cluster's members, as the live machines' members know them.
func (a *testAlliance) etcdMembers() ([]*etcdserverpb.Member, error) {
	cli := a.etcd()
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	resp, err := cli.MemberList(ctx)
	if err != nil {
		return nil, err
	}
	return resp.Members, nil
}

// etcdRoles returns the etcd voters and learners as the live machines' members list them.
func (a *testAlliance) etcdRoles() (voters, learners []string, err error) {
	members, err := a.etcdMembers()
	if err != nil {
		return nil, nil, err
	}
	for _, m := range members {
		if m.IsLearner {
			learners = append(learners, m.Name)
		} else {
			voters = append(voters, m.Name)
		}
	}
	slices.Sort(voters)
	slices.Sort(learners)
	return voters, learners, nil
}

// Twenty machines started from one peer list form an etcd cluster of --max-voters voters and
// learners for the rest; when two voters are killed, learners are promoted, and the placement
// of 200 sellers settles without them.
func TestTwentyMachinesKeepMaxVoters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 machines")
	}
	a := startAlliance(t, "star", twentyByTwoHundred(), allianceOpts{
		extra: []string{"--max-voters", "5", "--dead-member-grace", "5s"}, perDay: 4, days: 1})
	took := a.waitSettled(240 * time.Second)
	t.Logf("20 machines × 200 sellers settled %v after the last start", took.Round(time.Millisecond))
	framework.Eventually(t, 60*time.Second, "5 voters (the first five names) and 15 learners", func() error {
		voters, learners, err := a.etcdRoles()
		if err != nil {
			return err
		}
		if !slices.Equal(voters, []string{"m01", "m02", "m03", "m04", "m05"}) || len(learners) != 15 {
			return fmt.Errorf("voters %v, learners %v", voters, learners)
		}
		return nil
	})

	a.kill("m02")
	a.kill("m04")
	took = a.waitSettled(120 * time.Second)
	t.Logf("two voters killed: placement settled after %v", took.Round(time.Millisecond))
	framework.Eventually(t, 90*time.Second, "two learners promoted in place of the dead voters", func() error {
		voters, learners, err := a.etcdRoles()
		if err != nil {
			return err
		}
		if len(voters) != 5 || slices.Contains(voters, "m02") || slices.Contains(voters, "m04") || len(learners) != 13 {
			return fmt.Errorf("voters %v, learners %v", voters, learners)
		}
		return nil
	})
	queries := busyQueries(a.activeData(), 3)
	if err := a.checkAnswers("m20", queries); err != nil {
		t.Fatal(err)
	}

	// A join and a graceful leave, each timed to a settled placement.
	start := time.Now()
	a.add("m21", "KL")
	a.waitSettled(120 * time.Second)
	t.Logf("m21 joined (--join, bringing KL): placement settled %v after its start", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	m20 := a.machines["m20"]
	a.leave("m20")
	if code := m20.proc.Wait(60 * time.Second); code != 0 {
		t.Fatalf("m20 exited with %d after SIGTERM, want 0", code)
	}
	exited := time.Since(start)
	a.waitSettled(60 * time.Second)
	t.Logf("m20 left (SIGTERM): exited after %v, placement settled %v after the signal",
		exited.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	if err := a.checkAnswers("m21", queries); err != nil {
		t.Fatal(err)
	}
}
