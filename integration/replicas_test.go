package integration

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// TestReplicasChangeLiveAndRefuseMismatch: an alliance started without --replicas records the
// seed's K = 2 at its bootstrap. A machine that tries to join with --replicas 3 refuses to start,
// saying which flag and which value the alliance has, and leaves nothing behind (its etcd member
// is gone again, the alliance unchanged). Then K is changed live, as `alliancectl replicas 3`
// does (one guarded write of /alliances/<a>/config): every machine reports 3, one round places a
// third copy of every seller, searches stay complete, and a machine restarted with its own
// command line adopts the new K.
func TestReplicasChangeLiveAndRefuseMismatch(t *testing.T) {
	dir := t.TempDir()
	base, _ := framework.StartSearch(t, dir)
	a := newAlliance(t, "star", map[string][]string{"m1": {"LY"}, "m2": {"UA"}, "m3": {"LH", "AF"}}, base)
	a.waitSettled(90 * time.Second)
	queries, _ := a.readyQueries(base, 3)
	if st, err := a.status("m2"); err != nil || st.Replicas != 2 {
		t.Fatalf("/status of m2: replicas %d, %v; want 2 recorded at the bootstrap", st.Replicas, err)
	}

	var join []string
	for _, n := range a.live() {
		join = append(join, a.machines[n].scheme+a.machines[n].advertisedClient())
	}
	odd := a.newMachine("m4", []string{"KL"}, []string{"--replicas", "3"})
	odd.join = strings.Join(join, ",")
	p := framework.StartProc(t, a.dir, "m4", "airline", a.args(odd)...)
	if code := p.Wait(90 * time.Second); code != 1 {
		t.Fatalf("a machine joining with --replicas 3 exited with %d, want 1", code)
	}
	log, _ := os.ReadFile(p.Log)
	if !strings.Contains(string(log), "--replicas 3: alliance star runs with replicas 2") {
		t.Fatalf("the refused machine's log does not say why:\n%s", tail(log, 2000))
	}
	delete(a.machines, "m4")
	a.order = a.order[:len(a.order)-1]
	a.waitMembers(30 * time.Second) // its etcd member left again
	a.waitSettled(30 * time.Second)

	cli := a.etcd()
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cli.Put(ctx, "/alliances/star/config", `{"replicas":3}`); err != nil {
		t.Fatal(err)
	}
	framework.Eventually(t, 60*time.Second, "every machine reports replicas 3", func() error {
		for _, n := range a.live() {
			if st, err := a.status(n); err != nil || st.Replicas != 3 {
				return fmt.Errorf("%s: replicas %d, %v", n, st.Replicas, err)
			}
		}
		return nil
	})
	took := a.waitSettled(60 * time.Second) // checkInvariants reads K from the tree: three copies
	t.Logf("replicas 2 → 3 live: placement settled with three copies %v after every machine saw it", took.Round(time.Millisecond))
	if err := checkSearch(base, []*testAlliance{a}, queries); err != nil {
		t.Fatal(err)
	}
	a.restart("m2")
	framework.Eventually(t, 60*time.Second, "m2, restarted without --replicas, adopts the alliance's 3", func() error {
		if st, err := a.status("m2"); err != nil || st.Replicas != 3 || st.Joining {
			return fmt.Errorf("replicas %d, joining %v, %v", st.Replicas, st.Joining, err)
		}
		return nil
	})
	a.waitSettled(90 * time.Second)
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
