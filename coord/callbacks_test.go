package coord_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"flightalliance/coord"
)

type recorder struct {
	mu  sync.Mutex
	got []string
}

func (r *recorder) add(kind string) func(coord.Event) {
	return func(ev coord.Event) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got = append(r.got, fmt.Sprintf("%s %s %s", kind, ev.Name, ev.Value))
	}
}

func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func TestCallbacks(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)
	cbs := coord.NewCallbacks(tree)
	defer cbs.Close()
	var rec recorder
	for _, err := range []error{
		cbs.OnCreated(ctx, "/cb/node", rec.add("created")),
		cbs.OnChanged(ctx, "/cb/node", rec.add("changed")),
		cbs.OnRemoved(ctx, "/cb/node", rec.add("removed")),
		cbs.OnLockChanged(ctx, "/cb/lock", rec.add("lock")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	tree.Create(ctx, "/cb/node", []byte("1"))
	tree.Set(ctx, "/cb/node", []byte("2"))
	tree.Delete(ctx, "/cb/node")
	want := []string{"created node 1", "changed node 2", "removed node "}
	eventually(t, 5*time.Second, "node callbacks", func() bool { return len(rec.snapshot()) >= 3 })
	if got := rec.snapshot(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("node callbacks %q, want %q", got, want)
	}

	s := newSession(t, cli, 2*time.Second)
	g, err := coord.NewMutex(tree, s, "/cb/lock").Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "lock callback on grant", func() bool { return len(rec.snapshot()) == 4 })
	if got := rec.snapshot()[3]; got != fmt.Sprintf("lock %s ", g.Key()[len("/cb/lock/"):]) {
		t.Fatalf("lock callback %q for holder %s", got, g.Key())
	}
	g.Unlock(ctx)
	eventually(t, 5*time.Second, "lock callback on release", func() bool { return len(rec.snapshot()) == 5 })
	if got := rec.snapshot()[4]; got != "lock  " {
		t.Fatalf("lock callback on release %q", got)
	}

	cbs.Clear("/cb/node")
	tree.Create(ctx, "/cb/node", []byte("3"))
	// A later change on a path still registered: once its callback ran, a
	// callback for the earlier /cb/node change would have run too.
	g, err = coord.NewMutex(tree, s, "/cb/lock").Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Unlock(ctx)
	eventually(t, 5*time.Second, "lock callback after Clear", func() bool { return len(rec.snapshot()) >= 6 })
	if got := rec.snapshot(); len(got) != 6 || got[5][:4] != "lock" {
		t.Fatalf("callbacks after Clear: %q", got[5:])
	}
}
