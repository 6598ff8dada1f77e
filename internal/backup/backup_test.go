package backup

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"

	"flightalliance/internal/freeport"
)

// member is a one-member etcd cluster run in the test process.
type member struct {
	etcd   *embed.Etcd
	client string // client URL
	peer   string // peer URL
}

// startMember starts etcd named name on dir: bootstrapping a new cluster when dir is empty,
// or on the data a restore wrote there (whose peer URL must be peer). The test stops it.
func startMember(t *testing.T, name, dir, peer string) *member {
	t.Helper()
	addrs, err := freeport.Addrs(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if peer == "" {
		peer = "http://" + addrs[0]
	}
	client := "http://" + addrs[1]
	pu, _ := url.Parse(peer)
	cu, _ := url.Parse(client)
	cfg := embed.NewConfig()
	cfg.Name, cfg.Dir, cfg.LogLevel = name, dir, "error"
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{*pu}, []url.URL{*pu}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{*cu}, []url.URL{*cu}
	cfg.InitialCluster = name + "=" + peer
	cfg.InitialClusterToken = ClusterToken("star")
	cfg.UnsafeNoFsync = true
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("etcd not ready after 30s")
	}
	return &member{etcd: e, client: client, peer: peer}
}

func (m *member) cli(t *testing.T) *clientv3.Client {
	t.Helper()
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{m.client}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// fill writes what an alliance's tree holds: bookings (one later cancelled, one deleted),
// seat counters, a setting, and an ephemeral machine entry bound to a lease.
func fill(t *testing.T, c *clientv3.Client) {
	t.Helper()
	ctx := context.Background()
	put := func(k, v string, opts ...clientv3.OpOption) {
		if _, err := c.Put(ctx, k, v, opts...); err != nil {
			t.Fatal(err)
		}
	}
	put("/alliances/star/config", `{"replicas":2}`)
	for i := range 3 {
		put(fmt.Sprintf("/alliances/star/bookings/star.b%d", i), fmt.Sprintf(`{"id":"star.b%d","seats":2,"status":"confirmed"}`, i))
	}
	put("/alliances/star/bookings/star.b2", `{"id":"star.b2","seats":2,"status":"cancelled"}`)
	put("/alliances/star/bookings/star.gone", `{"status":"confirmed"}`)
	if _, err := c.Delete(ctx, "/alliances/star/bookings/star.gone"); err != nil {
		t.Fatal(err)
	}
	put("/alliances/star/seats/LY/LY001", "4")
	lease, err := c.Grant(ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	put("/alliances/star/machines/m1", `{"name":"m1"}`, clientv3.WithLease(lease.ID))
}

func TestSaveVerifyRestore(t *testing.T) {
	old := startMember(t, "m1", t.TempDir(), "")
	fill(t, old.cli(t))
	out := filepath.Join(t.TempDir(), "star.db")
	taken, sum, err := Save(context.Background(), Source{Endpoints: []string{old.client}}, out)
	if err != nil {
		t.Fatal(err)
	}
	if taken.Member != "m1" || taken.Endpoint != old.client || taken.Version == "" {
		t.Errorf("taken from %+v", taken)
	}
	if got := sum.BookingText(); got != "3 (star: 1 cancelled, 2 confirmed)" {
		t.Errorf("bookings %q", got)
	}
	if sum.Leases != 1 || sum.Keys != 6 || sum.Revision < 8 || strings.Join(sum.Alliances, ",") != "star" {
		t.Errorf("summary %+v", sum)
	}
	if st, err := os.Stat(out); err != nil || st.Size() != sum.Size || st.Mode().Perm() != 0o600 {
		t.Errorf("the snapshot file: %v, %v", st, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// Restore it as the one member of a new cluster, on other ports, and read it back.
	addr, err := freeport.Addrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	peers, err := ParsePeers("n1=http://" + addr[0])
	if err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(t.TempDir(), "etcd", "n1")
	r, err := Restore(RestoreConfig{Snapshot: out, Name: "n1", DataDir: dataDir, Peers: peers})
	if err != nil {
		t.Fatal(err)
	}
	if r.Token != "flightalliance-star" || r.Summary.BookingCount() != 3 {
		t.Errorf("restored %+v", r)
	}
	if st, err := os.Stat(dataDir); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the data dir: %v, %v", st, err)
	}
	if left, _ := filepath.Glob(dataDir + ".restoring-*"); len(left) > 0 {
		t.Errorf("temporary directories left: %v", left)
	}
	restored := startMember(t, "n1", dataDir, peers[0].PeerURL)
	c := restored.cli(t)
	resp, err := c.Get(context.Background(), "/alliances/star/bookings/", clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, kv := range resp.Kvs {
		got = append(got, string(kv.Key)+" "+string(kv.Value))
	}
	want := []string{
		`/alliances/star/bookings/star.b0 {"id":"star.b0","seats":2,"status":"confirmed"}`,
		`/alliances/star/bookings/star.b1 {"id":"star.b1","seats":2,"status":"confirmed"}`,
		`/alliances/star/bookings/star.b2 {"id":"star.b2","seats":2,"status":"cancelled"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("restored bookings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if resp.Header.Revision < sum.Revision {
		t.Errorf("restored at revision %d, before the snapshot's %d", resp.Header.Revision, sum.Revision)
	}
	members, err := c.MemberList(context.Background())
	if err != nil || len(members.Members) != 1 || members.Members[0].Name != "n1" || members.Members[0].PeerURLs[0] != peers[0].PeerURL {
		t.Errorf("the restored cluster's members: %v, %v", members, err)
	}
}

func TestVerifyRefusesDamagedSnapshots(t *testing.T) {
	m := startMember(t, "m1", t.TempDir(), "")
	fill(t, m.cli(t))
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	if _, _, err := Save(context.Background(), Source{Endpoints: []string{m.client}}, good); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 0xff
	for name, content := range map[string][]byte{
		"flipped":    flipped,
		"truncated":  data[:len(data)-100],
		"no trailer": data[:len(data)-32],
		"empty":      nil,
	} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, content, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Verify(f); !errors.Is(err, ErrNotSnapshot) {
			t.Errorf("%s: Verify = %v, want ErrNotSnapshot", name, err)
		}
		out := filepath.Join(dir, name+".restored")
		if _, err := Restore(RestoreConfig{Snapshot: f, Name: "a", DataDir: out, Peers: []Member{{"a", "http://127.0.0.1:1"}}}); err == nil ||
			fileExists(out) {
			t.Errorf("%s: restored (%v)", name, err)
		}
	}
	// A member's own database (no trailer) is refused too: it may be mid-write.
	if _, err := Verify(filepath.Join(m.etcd.Config().Dir, "member", "snap", "db")); !errors.Is(err, ErrNotSnapshot) {
		t.Errorf("a live member's db: %v", err)
	}
}

func TestSaveNamesUnreachableEndpoints(t *testing.T) {
	addr, err := freeport.Addrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out := filepath.Join(t.TempDir(), "x.db")
	_, _, err = Save(ctx, Source{Endpoints: []string{"http://" + addr[0]}}, out)
	if err == nil || !strings.Contains(err.Error(), addr[0]) {
		t.Errorf("Save from nothing: %v", err)
	}
	if fileExists(out) {
		t.Error("a failed Save wrote the file")
	}
}

func TestRestoreRefusesBadInput(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	peers := []Member{{"m1", "https://10.0.0.5:2380"}, {"m2", "https://10.0.0.6:2380"}}
	for _, c := range []struct {
		cfg  RestoreConfig
		want string
	}{
		{RestoreConfig{Snapshot: "s", Name: "m9", DataDir: "d", Peers: peers}, `name: "m9" is not one of the peers (m1, m2)`},
		{RestoreConfig{Snapshot: "s", Name: "m1", DataDir: full, Peers: peers}, "data-dir: " + full + " is not empty"},
		{RestoreConfig{Name: "m1", DataDir: "d", Peers: peers}, "snapshot: no file"},
		{RestoreConfig{Snapshot: "s", Name: "m1", DataDir: "d"}, "peers: no members"},
	} {
		_, err := Restore(c.cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	for in, want := range map[string]string{
		"m1=https://a:1,m1=https://b:1": "m1 given twice",
		"m1=https://a:1,m2=https://a:1": "m1 and m2 have the same URL",
		"m1":                            `"m1" is not NAME=URL`,
		"m1=a:1":                        "not an http:// or https:// URL",
		"m1=https://a":                  "has no host:port",
		"m1=https://a:1/x":              "has a path",
		"m1=https://a:1,":               `"" is not NAME=URL`,
	} {
		var ce *ConfigError
		if _, err := ParsePeers(in); !errors.As(err, &ce) || ce.Field != "peers" || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePeers(%q): %v, want %q", in, err, want)
		}
	}
	if got, err := ParsePeers(" m1=https://10.0.0.5:2380/ ,m2=http://m2.star.svc:2380"); err != nil ||
		len(got) != 2 || got[0] != (Member{"m1", "https://10.0.0.5:2380"}) || got[1] != (Member{"m2", "http://m2.star.svc:2380"}) {
		t.Errorf("ParsePeers: %v, %v", got, err)
	}
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
