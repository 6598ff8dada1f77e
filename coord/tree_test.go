package coord_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/coord"
)

func newSession(t testing.TB, cli *clientv3.Client, ttl time.Duration) *coord.Session {
	t.Helper()
	s, err := coord.NewSession(t.Context(), cli, ttl)
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	t.Cleanup(func() { s.Close(t.Context()) })
	return s
}

func TestPathValidation(t *testing.T) {
	for _, p := range []string{"", "a", "a/b", "//a", "/a//b", "/a/", "/a/./b", "/a/..", "/"} {
		err := coord.CheckPath(p, false)
		if !errors.Is(err, coord.ErrBadPath) {
			t.Errorf("checkPath(%q) = %v, want ErrBadPath", p, err)
		}
		if err != nil && !strings.Contains(err.Error(), strconv.Quote(p)) {
			t.Errorf("error %q does not name the path %q", err, p)
		}
	}
	for _, p := range []string{"/a", "/a/b.c/d", "/alliances/star/machines/m1"} {
		if err := coord.CheckPath(p, false); err != nil {
			t.Errorf("checkPath(%q) = %v", p, err)
		}
	}
	if err := coord.CheckPath("/", true); err != nil {
		t.Errorf("root refused for listing: %v", err)
	}
}

func TestTreeOperations(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	cli := c.members[0].Client()
	tree := coord.NewTree(cli)

	st, err := tree.Create(ctx, "/alliances/star/machines/m1", []byte("v1"))
	if err != nil || st.Version != 1 || st.CreateRevision == 0 || st.CreateRevision != st.ModRevision {
		t.Fatalf("create: %+v %v", st, err)
	}
	raw, err := cli.Get(ctx, "/alliances/star/machines/m1")
	if err != nil || len(raw.Kvs) != 1 || string(raw.Kvs[0].Value) != "v1" {
		t.Fatalf("the etcd key must equal the path: %v %v", raw, err)
	}
	if _, err := tree.Create(ctx, "/alliances/star/machines/m1", nil); !errors.Is(err, coord.ErrNodeExists) {
		t.Fatalf("second create: %v, want ErrNodeExists", err)
	}
	if _, err := tree.Create(ctx, "/a//b", nil); !errors.Is(err, coord.ErrBadPath) {
		t.Fatalf("create bad path: %v", err)
	}
	st2, err := tree.Set(ctx, "/alliances/star/machines/m1", []byte("v2"), coord.IfVersion(1))
	if err != nil || st2.Version != 2 || st2.CreateRevision != st.CreateRevision || st2.ModRevision <= st.ModRevision {
		t.Fatalf("set: %+v %v", st2, err)
	}
	if _, err := tree.Set(ctx, "/alliances/star/machines/m1", []byte("v3"), coord.IfVersion(1)); !errors.Is(err, coord.ErrBadVersion) {
		t.Fatalf("set with stale version: %v, want ErrBadVersion", err)
	}
	if _, err := tree.Set(ctx, "/nope", nil); !errors.Is(err, coord.ErrNoNode) {
		t.Fatalf("set missing: %v, want ErrNoNode", err)
	}
	v, gst, err := tree.Get(ctx, "/alliances/star/machines/m1")
	if err != nil || string(v) != "v2" || gst != st2 {
		t.Fatalf("get: %q %+v %v (want stat %+v)", v, gst, err, st2)
	}
	if _, _, err := tree.Get(ctx, "/nope"); !errors.Is(err, coord.ErrNoNode) {
		t.Fatalf("get missing: %v", err)
	}

	for _, p := range []string{"/alliances/star/machines/m3", "/alliances/star/machines/m2", "/alliances/star/machines/m2/deep",
		"/alliances/star/machinesX"} {
		if _, err := tree.Create(ctx, p, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	names, rev, err := tree.Children(ctx, "/alliances/star/machines")
	if err != nil || !slices.Equal(names, []string{"m1", "m2", "m3"}) || rev == 0 {
		t.Fatalf("children: %v %d %v", names, rev, err)
	}
	kids, _, err := tree.ChildrenData(ctx, "/alliances/star/machines", 0)
	if err != nil || len(kids) != 3 || kids[0].Name != "m1" || string(kids[0].Value) != "v2" {
		t.Fatalf("children data: %+v %v", kids, err)
	}
	old, _, err := tree.ChildrenData(ctx, "/alliances/star/machines", st.CreateRevision)
	if err != nil || len(old) != 1 || string(old[0].Value) != "v1" {
		t.Fatalf("children data at revision %d: %+v %v", st.CreateRevision, old, err)
	}

	if err := tree.Delete(ctx, "/alliances/star/machines/m3", coord.IfVersion(7)); !errors.Is(err, coord.ErrBadVersion) {
		t.Fatalf("delete with wrong version: %v", err)
	}
	if err := tree.Delete(ctx, "/alliances/star/machines/m3"); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := tree.Exists(ctx, "/alliances/star/machines/m3"); ok || err != nil {
		t.Fatalf("exists after delete: %v %v", ok, err)
	}
	if err := tree.Delete(ctx, "/alliances/star/machines/m3"); !errors.Is(err, coord.ErrNoNode) {
		t.Fatalf("delete missing: %v", err)
	}

	// Multi is all or nothing and names the failing op.
	_, err = tree.Multi(ctx, coord.OpCreate("/x/new", []byte("n")), coord.OpSet("/alliances/star/machines/m1", []byte("v9"), coord.IfVersion(1)))
	var me *coord.MultiError
	if !errors.As(err, &me) || me.Index != 1 || !errors.Is(err, coord.ErrBadVersion) {
		t.Fatalf("failing multi: %v", err)
	}
	if ok, _, _ := tree.Exists(ctx, "/x/new"); ok {
		t.Fatal("failed multi wrote its first op")
	}
	if _, err := tree.Multi(ctx, coord.OpCreate("/x/new", []byte("n")), coord.OpCheckVersion("/alliances/star/machines/m1", 2),
		coord.OpDelete("/alliances/star/machines/m2"), coord.OpSet("/alliances/star/machinesX", []byte("s"))); err != nil {
		t.Fatalf("multi: %v", err)
	}
	if ok, _, _ := tree.Exists(ctx, "/alliances/star/machines/m2"); ok {
		t.Fatal("multi did not delete")
	}
}

func TestEphemeralNodes(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	tree := coord.NewTree(c.members[0].Client())
	s := newSession(t, c.members[0].Client(), time.Second)
	if s.TTL() < time.Second {
		t.Fatalf("session TTL %v", s.TTL())
	}
	st, err := tree.Create(ctx, "/e/node", []byte("1"), coord.Ephemeral(s))
	if err != nil || st.Lease != s.Lease() {
		t.Fatalf("ephemeral create: %+v %v", st, err)
	}
	st, err = tree.Set(ctx, "/e/node", []byte("2"))
	if err != nil || st.Lease != s.Lease() {
		t.Fatalf("set must keep the lease: %+v %v", st, err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := tree.Exists(ctx, "/e/node"); ok || err != nil {
		t.Fatalf("ephemeral node after its session closed: %v %v", ok, err)
	}
	select {
	case <-s.Done():
	default:
		t.Fatal("Done not closed after Close")
	}
}

// An ephemeral node vanishes within TTL + an election after its session's
// only member dies (the session cannot keep its lease alive any more).
func TestEphemeralVanishesWhenItsMemberDies(t *testing.T) {
	c := newCluster(t, 3)
	ctx := ctxTimeout(t, 60*time.Second)
	only3, err := newClient([]string{c.cfgs[2].ClientURL})
	if err != nil {
		t.Fatal(err)
	}
	defer only3.Close()
	s, err := coord.NewSession(ctx, only3, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tree := coord.NewTree(c.members[0].Client())
	if _, err := coord.NewTree(only3).Create(ctx, "/alliances/a/machines/m3", nil, coord.Ephemeral(s)); err != nil {
		t.Fatal(err)
	}
	c.stop(2)
	died := time.Now()
	limit := s.TTL() + electionTimeout(c.cfgs[0]) + 3*time.Second // slack for a busy machine
	eventually(t, limit, "ephemeral node gone", func() bool {
		ok, _, err := tree.Exists(ctx, "/alliances/a/machines/m3")
		return err == nil && !ok
	})
	t.Logf("ephemeral node vanished %v after its member died (TTL %v)", time.Since(died).Round(10*time.Millisecond), s.TTL())
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("session on the dead member did not report Done")
	}
}

func TestDescendantsListsEveryLevel(t *testing.T) {
	c := newCluster(t, 1)
	ctx := ctxTimeout(t, 30*time.Second)
	tree := coord.NewTree(c.members[0].Client())
	for _, p := range []string{"/a/sellers/LY/m1", "/a/sellers/LY/m2", "/a/sellers/UA/m1", "/a/machines/m1", "/ab/x"} {
		if _, err := tree.Create(ctx, p, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := tree.Descendants(ctx, "/a/sellers")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
		if string(c.Value) != "/a/sellers/"+c.Name {
			t.Fatalf("%s has value %q", c.Name, c.Value)
		}
	}
	if want := []string{"LY/m1", "LY/m2", "UA/m1"}; !slices.Equal(names, want) {
		t.Fatalf("descendants of /a/sellers = %v, want %v", names, want)
	}
}
