package coord_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"flightalliance/coord"
)

func nextName(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case n, ok := <-ch:
		if !ok {
			t.Fatal("LowestName channel closed")
		}
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no LowestName value within 10s")
	}
	return ""
}

func TestLowestName(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)
	leaders := coord.LowestName(ctx, tree, "/alliances/star/machines")
	if got := nextName(t, leaders); got != "" {
		t.Fatalf("no machines: leader %q", got)
	}
	sm2, sm3 := newSession(t, cli, 2*time.Second), newSession(t, cli, 2*time.Second)
	tree.Create(ctx, "/alliances/star/machines/m3", nil, coord.Ephemeral(sm3))
	if got := nextName(t, leaders); got != "m3" {
		t.Fatalf("leader %q, want m3", got)
	}
	tree.Create(ctx, "/alliances/star/machines/m2", nil, coord.Ephemeral(sm2))
	if got := nextName(t, leaders); got != "m2" {
		t.Fatalf("leader %q, want m2", got)
	}
	tree.Create(ctx, "/alliances/star/machines/m2/sub", nil) // a grandchild is no candidate
	tree.Create(ctx, "/alliances/star/machines/m4", nil)     // not lower: no new value
	sm2.Close(ctx)
	if got := nextName(t, leaders); got != "m3" {
		t.Fatalf("after m2's session ended: leader %q, want m3", got)
	}
}

func TestLeaseElection(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	s1, s2 := newSession(t, cli, 2*time.Second), newSession(t, cli, 2*time.Second)
	e1, e2 := coord.NewLeaseElection(s1, "/elect/delegate"), coord.NewLeaseElection(s2, "/elect/delegate")

	leading := make(chan struct{})
	run1 := make(chan error, 1)
	go func() {
		run1 <- e1.Run(ctx, "m1", func(lctx context.Context) error {
			close(leading)
			<-lctx.Done()
			return context.Cause(lctx)
		})
	}()
	select {
	case <-leading:
	case <-time.After(10 * time.Second):
		t.Fatal("m1 not elected")
	}
	if v, err := e2.Leader(ctx); err != nil || v != "m1" {
		t.Fatalf("leader %q %v, want m1", v, err)
	}
	second := make(chan struct{})
	run2 := make(chan error, 1)
	go func() {
		run2 <- e2.Run(ctx, "m2", func(lctx context.Context) error { close(second); return nil })
	}()
	select {
	case <-second:
		t.Fatal("m2 elected while m1 leads")
	case <-time.After(300 * time.Millisecond):
	}
	// m1's lease is lost: its task's context is cancelled, m2 takes over.
	if _, err := cli.Revoke(ctx, s1.Lease()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-run1:
		if !errors.Is(err, coord.ErrLeadershipLost) {
			t.Fatalf("m1's task ended with %v, want ErrLeadershipLost", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("m1's leader context not cancelled after its lease was lost")
	}
	select {
	case <-second:
	case <-time.After(5 * time.Second):
		t.Fatal("m2 not elected after m1 lost its lease")
	}
	if err := <-run2; err != nil {
		t.Fatal(err)
	}
}
