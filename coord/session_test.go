package coord_test

import (
	"testing"
	"time"

	"flightalliance/coord"
)

// TestSessionResumesItsLiveLease: when the client's keep-alive ends while the lease still lives
// (as when keep-alives get no answer for a TTL while a new etcd leader is elected), the session
// carries on with the same lease and everything bound to it stays; when the lease is gone, the
// session ends.
func TestSessionResumesItsLiveLease(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 60*time.Second)
	cli := c.members[0].Client()
	s := newSession(t, cli, 2*time.Second)
	tree := coord.NewTree(cli)
	if _, err := tree.Create(ctx, "/alliances/a/machines/m1", nil, coord.Ephemeral(s)); err != nil {
		t.Fatal(err)
	}

	lost, doubt := s.Current(), s.Doubt()
	lost.Orphan() // the client's keep-alive ends; the lease does not
	select {
	case <-doubt: // what was built on the old keep-alive (a lock, a lead) must stop
	case <-time.After(5 * time.Second):
		t.Fatal("Doubt not closed when the keep-alive ended")
	}
	eventually(t, 10*time.Second, "the session keeps its lease alive again", func() bool { return s.Current() != lost })
	select {
	case <-s.Doubt():
		t.Fatal("the resumed session's Doubt is closed")
	default:
	}
	resumed := time.Now()
	for time.Since(resumed) < 2*s.TTL() { // past two TTLs: the lease is kept alive, not just alive still
		select {
		case <-s.Done():
			t.Fatal("the session ended although its lease lives")
		case <-time.After(100 * time.Millisecond):
		}
		if ok, _, err := tree.Exists(ctx, "/alliances/a/machines/m1"); err != nil || !ok {
			t.Fatalf("the ephemeral node vanished %v after the session resumed: %v", time.Since(resumed), err)
		}
	}

	if _, err := cli.Revoke(ctx, s.Lease()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Done():
	case <-time.After(2 * s.TTL()):
		t.Fatal("the session did not end after its lease was revoked")
	}
}
