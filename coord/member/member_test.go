package member

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"flightalliance/coord"
)

func TestSingleMemberStartsAndRestarts(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	m := c.members[0]
	st := m.Status(ctx)
	if !st.IsLeader || !st.HasQuorum || st.Leader != "m1" || len(st.Members) != 1 {
		t.Fatalf("status of a one-member cluster: %+v", st)
	}
	if _, err := coord.NewTree(m.Client()).Create(ctx, "/a", []byte("1")); err != nil {
		t.Fatal(err)
	}
	// etcd answers a write once it is applied but records the applied index just after (it
	// triggers the waiting request first): the index rises, a moment after the answer.
	eventually(t, 10*time.Second, "the applied index rises after a write", func() bool {
		return m.Status(ctx).AppliedIndex > st.AppliedIndex
	})
	c.stop(0)
	m = c.restart(0)
	v, _, err := coord.NewTree(m.Client()).Get(ctx, "/a")
	if err != nil || string(v) != "1" {
		t.Fatalf("after restart /a = %q, %v; want 1", v, err)
	}
}

func memberNames(st Status) (voters, learners []string) {
	for _, mb := range st.Members {
		if mb.IsLearner {
			learners = append(learners, mb.Name)
		} else {
			voters = append(voters, mb.Name)
		}
	}
	return voters, learners
}

// A stopped member does not stop the others; the leader's reconciler
// removes it after DeadGrace; re-running Start with its old data dir finds
// it removed, moves the data aside and joins fresh.
func TestStoppedMemberIsRemovedAndRejoinsWithOldDataDir(t *testing.T) {
	t.Run("open", func(t *testing.T) { testRemovedMemberRejoins(t) })
	t.Run("tls", func(t *testing.T) { testRemovedMemberRejoins(t, tlsOption(t, testCA(t))) })
}

func testRemovedMemberRejoins(t *testing.T, options ...func(*Config)) {
	c := newCluster(t, 3, options...)
	ctx := ctxTimeout(t, 90*time.Second)
	tree := coord.NewTree(c.members[0].Client())
	if _, err := tree.Create(ctx, "/before", []byte("x")); err != nil {
		t.Fatal(err)
	}
	c.stop(2)
	if _, err := tree.Create(ctx, "/during", []byte("y")); err != nil {
		t.Fatalf("write with one of three members stopped: %v", err)
	}
	eventually(t, 20*time.Second, "m3 removed by the reconciler", func() bool {
		return len(c.members[0].Status(ctx).Members) == 2 && len(c.members[1].Status(ctx).Members) == 2
	})
	m3 := c.restart(2)
	if matches, _ := filepath.Glob(c.cfgs[2].DataDir + ".removed-*"); len(matches) != 1 {
		t.Fatalf("old data dir not moved aside: %v", matches)
	}
	eventually(t, 20*time.Second, "m3 back as a voter", func() bool {
		voters, learners := memberNames(c.members[0].Status(ctx))
		return len(voters) == 3 && len(learners) == 0
	})
	if st := m3.Status(ctx); st.IsLearner || !st.HasQuorum {
		t.Fatalf("rejoined m3: %+v", st)
	}
	for _, p := range []string{"/before", "/during"} {
		if _, _, err := coord.NewTree(m3.Client()).Get(ctx, p); err != nil {
			t.Fatalf("rejoined m3 reads %s: %v", p, err)
		}
	}
}

// A machine with no data and a join URL is added as a learner and promoted;
// Leave removes it, and re-running Start joins it again.
func TestJoinPromoteLeaveRejoin(t *testing.T) {
	c := newCluster(t, 3)
	ctx := ctxTimeout(t, 120*time.Second)
	urls := freeURLs(t, 2)
	cfg := testConfig(t, c.dir, "m4", urls[0], urls[1], "")
	cfg.Join = []string{c.cfgs[1].ClientURL}
	m4, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { m4.Close() }()
	if st := m4.Status(ctx); st.IsLearner || len(st.Members) != 4 {
		t.Fatalf("joined m4 should be a voter of 4: %+v", st)
	}
	if _, err := coord.NewTree(m4.Client()).Create(ctx, "/m4", nil); err != nil {
		t.Fatalf("write through joined m4: %v", err)
	}
	if err := m4.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "m4 gone from the member list", func() bool {
		return len(c.members[0].Status(ctx).Members) == 3
	})
	again, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("start after leave: %v", err)
	}
	m4 = again
	if st := m4.Status(ctx); len(st.Members) != 4 {
		t.Fatalf("m4 rejoined: %+v", st)
	}
}

// A peer list longer than MaxVoters bootstraps only its first MaxVoters names as voters; the
// others join as learners, and one is promoted when a voter leaves.
func TestBootstrapMakesAtMostMaxVotersVoters(t *testing.T) {
	c := newCluster(t, 4, func(cfg *Config) { cfg.MaxVoters = 3 })
	ctx := ctxTimeout(t, 120*time.Second)
	eventually(t, 30*time.Second, "every member sees m1..m3 voting and m4 learning", func() bool {
		for _, m := range c.members {
			voters, learners := memberNames(m.Status(ctx))
			if !slices.Equal(voters, []string{"m1", "m2", "m3"}) || !slices.Equal(learners, []string{"m4"}) {
				return false
			}
		}
		return true
	})
	if err := c.members[0].Leave(ctx); err != nil {
		t.Fatal(err)
	}
	c.members[0] = nil
	eventually(t, 30*time.Second, "m4 promoted after m1 left", func() bool {
		voters, learners := memberNames(c.members[1].Status(ctx))
		return slices.Equal(voters, []string{"m2", "m3", "m4"}) && len(learners) == 0
	})
}

// Losing two of three members is detected (state and event); the control
// plane waits; the operator's Recover on the survivor forces a new cluster
// and the other two re-run Start and rejoin fresh.
func TestQuorumLossAndRecover(t *testing.T) {
	c := newCluster(t, 3)
	ctx := ctxTimeout(t, 150*time.Second)
	if _, err := coord.NewTree(c.members[0].Client()).Create(ctx, "/kept", []byte("v")); err != nil {
		t.Fatal(err)
	}
	changes := c.members[0].QuorumChanges()
	var wg sync.WaitGroup
	for _, i := range []int{1, 2} {
		m := c.members[i]
		c.members[i] = nil
		wg.Go(func() { m.Close() })
	}
	wg.Wait()
	// A true may still be queued from a leader change before the loss (the channel keeps the
	// latest state for a slow reader); the loss must follow it.
	lossDeadline := time.After(10 * time.Second)
	for lost := false; !lost; {
		select {
		case q := <-changes:
			lost = !q
		case <-lossDeadline:
			t.Fatal("quorum loss not reported")
		}
	}
	if st := c.members[0].Status(ctx); st.HasQuorum || st.Leader != "" {
		t.Fatalf("status without quorum: %+v", st)
	}
	c.stop(0)
	m1, err := Recover(ctx, c.cfgs[0])
	if err != nil {
		t.Fatal(err)
	}
	c.members[0] = m1
	if st := m1.Status(ctx); !st.HasQuorum || len(st.Members) != 1 {
		t.Fatalf("recovered member: %+v", st)
	}
	if v, _, err := coord.NewTree(m1.Client()).Get(ctx, "/kept"); err != nil || string(v) != "v" {
		t.Fatalf("data after recover: %q %v", v, err)
	}
	c.restart(1)
	c.restart(2)
	eventually(t, 20*time.Second, "three voters after recovery", func() bool {
		voters, _ := memberNames(m1.Status(ctx))
		return len(voters) == 3
	})
}
