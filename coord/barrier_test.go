package coord_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"flightalliance/coord"
)

type barrierParty struct {
	name string
	s    *coord.Session
	b    *coord.Barrier
}

func barrierParties(t *testing.T, tree *coord.Tree, path string, n int) []*barrierParty {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i+1)
	}
	var ps []*barrierParty
	for _, name := range names {
		s := newSession(t, tree.Client(), 5*time.Second)
		ps = append(ps, &barrierParty{name: name, s: s, b: coord.NewBarrier(tree, s, path, name, names)})
	}
	return ps
}

// parallel runs f for every party and returns their errors.
func parallel(ps []*barrierParty, f func(p *barrierParty) error) []error {
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() { errs[i] = f(p) })
	}
	wg.Wait()
	return errs
}

func TestBarrier(t *testing.T) {
	c := newCluster(t, 1)
	tree := coord.NewTree(c.members[0].Client())

	t.Run("all enter and leave; no enter keys left", func(t *testing.T) {
		ctx := ctxTimeout(t, 20*time.Second)
		ps := barrierParties(t, tree, "/b/round1", 3)
		var mu sync.Mutex
		seen := map[string]map[string][]byte{}
		errs := parallel(ps, func(p *barrierParty) error {
			vals, err := p.b.Enter(ctx, []byte("v-"+p.name))
			mu.Lock()
			seen[p.name] = vals
			mu.Unlock()
			if err != nil {
				return err
			}
			return p.b.Leave(ctx)
		})
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s: %v", ps[i].name, err)
			}
		}
		for _, p := range ps {
			if len(seen[p.name]) != 3 || string(seen[p.name]["p2"]) != "v-p2" {
				t.Fatalf("%s saw values %q", p.name, seen[p.name])
			}
		}
		if names, _, _ := tree.Children(ctx, "/b/round1/enter"); len(names) != 0 {
			t.Fatalf("enter keys left after the round: %v", names)
		}
		done, _, _ := tree.ChildrenData(ctx, "/b/round1/done", 0)
		for _, d := range done {
			if d.Stat.Lease == 0 {
				t.Fatalf("done key %s has no lease: it would stay forever", d.Name)
			}
		}
	})

	t.Run("participant dies while entering", func(t *testing.T) {
		ctx := ctxTimeout(t, 20*time.Second)
		ps := barrierParties(t, tree, "/b/round2", 3)
		go func() {
			// p3 enters, then its session dies before p2 arrives.
			ps[2].b.Enter(ctx, nil)
		}()
		eventually(t, 5*time.Second, "p3 entered", func() bool {
			ok, _, _ := tree.Exists(ctx, "/b/round2/enter/p3")
			return ok
		})
		res := make(chan error, 1)
		go func() { _, err := ps[0].b.Enter(ctx, nil); res <- err }()
		eventually(t, 5*time.Second, "p1 entered", func() bool {
			ok, _, _ := tree.Exists(ctx, "/b/round2/enter/p1")
			return ok
		})
		ps[2].s.Close(ctx)
		start := time.Now()
		select {
		case err := <-res:
			if !errors.Is(err, coord.ErrBarrierAborted) {
				t.Fatalf("p1 Enter: %v, want ErrBarrierAborted", err)
			}
			t.Logf("p1 aborted %v after p3's session died", time.Since(start).Round(time.Millisecond))
		case <-time.After(5 * time.Second):
			t.Fatal("p1 still waiting 5s after p3 died")
		}
	})

	t.Run("abort after others voted aborts everyone", func(t *testing.T) {
		ctx := ctxTimeout(t, 20*time.Second)
		ps := barrierParties(t, tree, "/b/round3", 3)
		errs := parallel(ps, func(p *barrierParty) error { _, err := p.b.Enter(ctx, nil); return err })
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		leaves := make(chan error, 2)
		for _, p := range ps[:2] {
			go func() { leaves <- p.b.Leave(ctx) }()
		}
		eventually(t, 5*time.Second, "p1 and p2 voted", func() bool {
			names, _, _ := tree.Children(ctx, "/b/round3/done")
			return len(names) == 2
		})
		if err := ps[2].b.Abort(ctx); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := <-leaves; !errors.Is(err, coord.ErrBarrierAborted) {
				t.Fatalf("Leave after an abort: %v, want ErrBarrierAborted", err)
			}
		}
		if err := ps[2].b.Leave(ctx); !errors.Is(err, coord.ErrBarrierAborted) {
			t.Fatalf("the aborter's own Leave: %v", err)
		}
	})

	t.Run("a zombie whose lease expired cannot vote", func(t *testing.T) {
		ctx := ctxTimeout(t, 20*time.Second)
		ps := barrierParties(t, tree, "/b/round4", 2)
		errs := parallel(ps, func(p *barrierParty) error { _, err := p.b.Enter(ctx, nil); return err })
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		// p2's lease is revoked behind its back (as if it paused past its TTL).
		if _, err := tree.Client().Revoke(ctx, ps[1].s.Lease()); err != nil {
			t.Fatal(err)
		}
		errs = parallel(ps, func(p *barrierParty) error { return p.b.Leave(ctx) })
		for i, err := range errs {
			if !errors.Is(err, coord.ErrBarrierAborted) {
				t.Fatalf("%s Leave: %v, want ErrBarrierAborted", ps[i].name, err)
			}
		}
		if ok, _, _ := tree.Exists(ctx, "/b/round4/done/p2"); ok {
			t.Fatal("the zombie wrote its done key")
		}
	})

	t.Run("enter honours ctx", func(t *testing.T) {
		ctx := ctxTimeout(t, 20*time.Second)
		ps := barrierParties(t, tree, "/b/round5", 2)
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		if _, err := ps[0].b.Enter(short, nil); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Enter with nobody else: %v", err)
		}
		if ok, _, _ := tree.Exists(ctx, "/b/round5/enter/p1"); ok {
			t.Fatal("enter key left after a cancelled Enter")
		}
	})
}
