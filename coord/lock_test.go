package coord_test

import (
	"errors"
	"testing"
	"time"

	"flightalliance/coord"
)

func TestMutex(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)
	sa, sb := newSession(t, cli, 2*time.Second), newSession(t, cli, 2*time.Second)
	a, b := coord.NewMutex(tree, sa, "/locks/seller-LY"), coord.NewMutex(tree, sb, "/locks/seller-LY")

	ga, err := a.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.TryLock(ctx); !errors.Is(err, coord.ErrLocked) {
		t.Fatalf("TryLock while held: %v, want ErrLocked", err)
	}
	if _, err := a.Lock(ctx); !errors.Is(err, coord.ErrLockHeld) {
		t.Fatalf("second Lock by the same session: %v, want ErrLockHeld", err)
	}
	got := make(chan *coord.Grant, 1)
	go func() {
		gb, err := b.Lock(ctx)
		if err != nil {
			t.Error(err)
		}
		got <- gb
	}()
	select {
	case <-got:
		t.Fatal("b got the lock while a holds it")
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := ga.Guarded(ctx, coord.OpCreate("/data/x", []byte("a"))); err != nil {
		t.Fatalf("holder's guarded write: %v", err)
	}
	if err := ga.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	var gb *coord.Grant
	select {
	case gb = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("b did not get the lock after a unlocked")
	}
	if gb.Token() <= ga.Token() {
		t.Fatalf("fencing tokens must grow: a %d, b %d", ga.Token(), gb.Token())
	}
	if _, err := ga.Guarded(ctx, coord.OpSet("/data/x", []byte("stale"))); !errors.Is(err, coord.ErrLockLost) {
		t.Fatalf("guarded write after unlock: %v, want ErrLockLost", err)
	}
	select {
	case <-ga.Lost():
	default:
		t.Fatal("an unlocked grant should report Lost")
	}
	gb.Unlock(ctx)
}

// A holder whose lease expired behind its back (a long pause) learns it,
// and its guarded write is refused while the new holder's succeeds.
func TestStaleLockHolderIsRefused(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)
	sa, sb := newSession(t, cli, 2*time.Second), newSession(t, cli, 2*time.Second)
	ga, err := coord.NewMutex(tree, sa, "/locks/seat").Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lost := ga.Lost()
	if _, err := tree.Create(ctx, "/seat", []byte("free")); err != nil {
		t.Fatal(err)
	}
	// The pause: a's lease is gone, a does not know yet.
	if _, err := cli.Revoke(ctx, sa.Lease()); err != nil {
		t.Fatal(err)
	}
	gb, err := coord.NewMutex(tree, sb, "/locks/seat").Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ga.Guarded(ctx, coord.OpSet("/seat", []byte("a"))); !errors.Is(err, coord.ErrLockLost) {
		t.Fatalf("stale holder's guarded write: %v, want ErrLockLost", err)
	}
	if _, err := gb.Guarded(ctx, coord.OpSet("/seat", []byte("b"))); err != nil {
		t.Fatalf("new holder's guarded write: %v", err)
	}
	if v, _, _ := tree.Get(ctx, "/seat"); string(v) != "b" {
		t.Fatalf("/seat = %q, want b", v)
	}
	select {
	case <-lost:
	case <-time.After(5 * time.Second):
		t.Fatal("stale holder not told it lost the lock")
	}
}

func TestRWMutex(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)
	s1, s2, s3, s4 := newSession(t, cli, 2*time.Second), newSession(t, cli, 2*time.Second),
		newSession(t, cli, 2*time.Second), newSession(t, cli, 2*time.Second)
	r1, err := coord.NewRWMutex(tree, s1, "/locks/rw").RLock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := coord.NewRWMutex(tree, s2, "/locks/rw").TryRLock(ctx)
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	if _, err := coord.NewRWMutex(tree, s3, "/locks/rw").TryLock(ctx); !errors.Is(err, coord.ErrLocked) {
		t.Fatalf("writer while read-locked: %v, want ErrLocked", err)
	}
	wgot := make(chan *coord.Grant, 1)
	go func() {
		w, err := coord.NewRWMutex(tree, s3, "/locks/rw").Lock(ctx)
		if err != nil {
			t.Error(err)
		}
		wgot <- w
	}()
	eventually(t, 5*time.Second, "writer queued", func() bool {
		names, _, _ := tree.Children(ctx, "/locks/rw")
		return len(names) == 3
	})
	// A reader arriving after a waiting writer queues behind it.
	if _, err := coord.NewRWMutex(tree, s4, "/locks/rw").TryRLock(ctx); !errors.Is(err, coord.ErrLocked) {
		t.Fatalf("reader behind a waiting writer: %v, want ErrLocked", err)
	}
	r1.Unlock(ctx)
	select {
	case <-wgot:
		t.Fatal("writer granted while a reader holds the lock")
	case <-time.After(300 * time.Millisecond):
	}
	r2.Unlock(ctx)
	select {
	case w := <-wgot:
		w.Unlock(ctx)
	case <-time.After(5 * time.Second):
		t.Fatal("writer not granted after the readers left")
	}
}
