package integration

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"flightalliance/tests/framework"
)

// etcd returns a client to the live machines' etcd members.
func (a *testAlliance) etcd() *clientv3.Client {
	a.t.Helper()
	var eps []string
	for _, n := range a.live() {
		eps = append(eps, a.machines[n].scheme+a.machines[n].client)
	}
	// Its retries are expected while machines die; a test reports what matters itself.
	cfg := clientv3.Config{Endpoints: eps, DialTimeout: 2 * time.Second, Logger: zap.NewNop()}
	if a.secure {
		cfg.TLS = framework.TesterTLS
	}
	cli, err := clientv3.New(cfg)
	if err != nil {
		a.t.Fatal(err)
	}
	return cli
}

// treeState is the placement as the coordination tree shows it.
type treeState struct {
	machines map[string]machineEntry
	holders  map[string]map[string]string // seller → machine → PRIMARY/BACKUP
	replicas int                          // K from /alliances/<a>/config (2 when absent)
}

type machineEntry struct {
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Zone      string   `json:"zone"`
	Primaries []string `json:"primaries"`
	Backups   []string `json:"backups"`
}

func (a *testAlliance) readTree(ctx context.Context) (treeState, error) {
	cli := a.etcd()
	defer cli.Close()
	prefix := "/alliances/" + a.name + "/"
	resp, err := cli.Get(ctx, prefix, clientv3.WithPrefix())
	if err != nil {
		return treeState{}, err
	}
	st := treeState{machines: map[string]machineEntry{}, holders: map[string]map[string]string{}, replicas: 2}
	for _, kv := range resp.Kvs {
		parts := strings.Split(strings.TrimPrefix(string(kv.Key), prefix), "/")
		switch {
		case len(parts) == 1 && parts[0] == "config":
			var c struct{ Replicas int }
			if err := json.Unmarshal(kv.Value, &c); err != nil || c.Replicas < 1 {
				return treeState{}, fmt.Errorf("%s: %q: %v", kv.Key, kv.Value, err)
			}
			st.replicas = c.Replicas
		case len(parts) == 2 && parts[0] == "machines":
			var e machineEntry
			if err := json.Unmarshal(kv.Value, &e); err != nil {
				return treeState{}, fmt.Errorf("%s: %w", kv.Key, err)
			}
			st.machines[parts[1]] = e
		case len(parts) == 3 && parts[0] == "sellers":
			if st.holders[parts[1]] == nil {
				st.holders[parts[1]] = map[string]string{}
			}
			st.holders[parts[1]][parts[2]] = string(kv.Value)
		}
	}
	return st, nil
}

// zoneOf is a machine's zone as its entry says (its name when it has none).
func (st treeState) zoneOf(m string) string { return cmp.Or(st.machines[m].Zone, m) }

// checkInvariants checks DESIGN.md's placement invariants 1, 2 and the agreement of the machine
// entries with the seller entries, for the given live machines and sellers — with K replicas
// (API.md): one PRIMARY and min(K, live)−1 BACKUPs on distinct machines, in as many distinct
// zones as the copies and the live zones allow; primaries balanced within one, and backups too
// in the two-copy model (K = 2, every machine its own zone).
func checkInvariants(st treeState, live, sellers []string) error {
	if got := slices.Sorted(maps.Keys(st.machines)); !slices.Equal(got, live) {
		return fmt.Errorf("machines in the tree %v, want the live ones %v", got, live)
	}
	zones := map[string]bool{}
	for _, m := range live {
		zones[st.zoneOf(m)] = true
	}
	seedModel := st.replicas == 2 && len(zones) == len(live)
	copies := min(st.replicas, len(live))
	primaries, backups := map[string]int{}, map[string]int{}
	for _, s := range sellers {
		var p, b []string
		for _, m := range live {
			e := st.machines[m]
			if slices.Contains(e.Primaries, s) {
				p = append(p, m)
				primaries[m]++
			}
			if slices.Contains(e.Backups, s) {
				b = append(b, m)
				backups[m]++
			}
			role := st.holders[s][m]
			want := ""
			if slices.Contains(e.Primaries, s) {
				want = "PRIMARY"
			} else if slices.Contains(e.Backups, s) {
				want = "BACKUP"
			}
			if role != want {
				return fmt.Errorf("seller %s on %s: seller entry says %q, machine entry says %q", s, m, role, want)
			}
		}
		if len(p) != 1 {
			return fmt.Errorf("seller %s has primaries %v", s, p)
		}
		if len(b) != copies-1 {
			return fmt.Errorf("seller %s has backups %v with %d machines and replicas %d", s, b, len(live), st.replicas)
		}
		if slices.Contains(b, p[0]) {
			return fmt.Errorf("seller %s has primary and backup on %s", s, p[0])
		}
		used := map[string]bool{}
		for _, m := range append(b, p[0]) {
			used[st.zoneOf(m)] = true
		}
		if want := min(copies, len(zones)); len(used) < want {
			return fmt.Errorf("seller %s has its %d copies in zones %v, want %d distinct zones", s, copies, slices.Sorted(maps.Keys(used)), want)
		}
	}
	if spread(primaries, live) > 1 || (seedModel && spread(backups, live) > 1) {
		return fmt.Errorf("unbalanced: primaries %v backups %v", primaries, backups)
	}
	return nil
}

func spread(count map[string]int, live []string) int {
	lo, hi := 1<<30, 0
	for _, m := range live {
		lo, hi = min(lo, count[m]), max(hi, count[m])
	}
	return hi - lo
}

// waitSettled waits until the tree shows exactly the live machines and the invariants hold.
func (a *testAlliance) waitSettled(timeout time.Duration) time.Duration {
	a.t.Helper()
	return framework.Eventually(a.t, timeout, "placement settled", func() error {
		if err := a.crashed(); err != nil {
			a.t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		st, err := a.readTree(ctx)
		if err != nil {
			return err
		}
		return checkInvariants(st, a.live(), a.sellers())
	})
}
