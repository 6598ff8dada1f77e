package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// cmdReplicas changes an alliance's K live: it rewrites /alliances/<A>/config (keeping its other
// settings) in the alliance's etcd, then waits until every running machine reports the new K and
// a committed round after it.
func cmdReplicas(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("replicas", "replicas K [--alliance A] [--wait 60s] [--endpoints URLs | --search URL] [--keys DIR | --cacert F --cert F --key F]", out)
	rf := addRemoteFlags(fs, true)
	wait := fs.Duration("wait", 60*time.Second, "how long to wait until every running machine re-placed (0: do not wait)")
	pos, err := parse(fs, args, 1, "K, the copies of every seller (1 to 5)")
	if err != nil {
		return err
	}
	k, err := strconv.Atoi(pos[0])
	if err != nil || k < 1 || k > 5 {
		return usagef("K: %q, want 1 to 5", pos[0])
	}
	if *wait < 0 {
		return usagef("--wait: %v, want 0 or more", *wait)
	}
	rm, err := rf.open()
	if err != nil {
		return err
	}
	if rf.given() {
		return remoteReplicas(ctx, rm, k, *wait, out)
	}
	s, abs, err := openState(*dir)
	if err != nil {
		return err
	}
	alliance := rf.alliance
	if alliance == "" {
		alliance = s.Alliances[0].Name
	}
	if !s.hasAlliance(alliance) {
		return usagef("--alliance: no alliance %q in this run", alliance)
	}
	var targets []statusTarget
	var endpoints []string
	for _, m := range s.machines(alliance) {
		if inspect(*m) == procRunning {
			targets = append(targets, statusTarget{Name: m.Name, URL: m.URL()})
			endpoints = append(endpoints, s.scheme()+m.advertised().Client)
		}
	}
	if len(targets) == 0 {
		return fmt.Errorf("alliance %s has no running machine", alliance)
	}
	c, err := s.client(2 * time.Second)
	if err != nil {
		return err
	}
	cli, err := s.etcdClient(endpoints)
	if err != nil {
		return err
	}
	defer cli.Close()
	before := roundsOf(ctx, c, targets)
	from, err := putReplicas(ctx, cli, alliance, k)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "alliance %s: replicas %d → %d\n", alliance, from, k)
	// Recorded, so that restart brings back a machine whose command line says --replicas with the
	// new K (the command lines of running processes stay as they are: they identify them).
	if err := updateState(abs, func(s *State) error {
		for i := range s.Alliances {
			if s.Alliances[i].Name == alliance {
				s.Alliances[i].Replicas = k
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if *wait == 0 {
		return nil
	}
	return waitReplicas(ctx, c, targets, before, k, *wait, out)
}

// etcdClient is alliancectl's etcd client of the run's machines, with its certificate when
// the run has keys.
func (s *State) etcdClient(endpoints []string) (*clientv3.Client, error) {
	cfg := clientv3.Config{Endpoints: endpoints, DialTimeout: 3 * time.Second, Logger: zap.NewNop()}
	if s.secure() {
		tlsCfg, err := s.keys().clientFiles().Client()
		if err != nil {
			return nil, fmt.Errorf("alliancectl's client certificate: %w", err)
		}
		cfg.TLS = tlsCfg
	}
	return clientv3.New(cfg)
}

// putReplicas sets replicas in the alliance's config, returning the value it replaced.
func putReplicas(ctx context.Context, cli *clientv3.Client, alliance string, k int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	key := "/alliances/" + alliance + "/config"
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", key, err)
	}
	settings := map[string]any{}
	var rev int64 // 0: the key must not exist
	if len(resp.Kvs) > 0 {
		if err := json.Unmarshal(resp.Kvs[0].Value, &settings); err != nil {
			return 0, fmt.Errorf("%s: %w", key, err)
		}
		rev = resp.Kvs[0].ModRevision
	}
	from, _ := settings["replicas"].(float64)
	settings["replicas"] = k
	value, _ := json.Marshal(settings)
	txn, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
		Then(clientv3.OpPut(key, string(value))).Commit()
	if err != nil {
		return 0, fmt.Errorf("writing %s: %w", key, err)
	}
	if !txn.Succeeded {
		return 0, fmt.Errorf("%s changed while alliancectl wrote it: run the command again", key)
	}
	return int(from), nil
}

// statusTarget is a machine whose /status alliancectl reads: its name and base URL.
type statusTarget struct{ Name, URL string }

// roundsOf is the round each machine of ms is in (or last did), by name.
func roundsOf(ctx context.Context, c *http.Client, ms []statusTarget) map[string]int64 {
	rounds := map[string]int64{}
	for _, m := range ms {
		var doc statusDoc
		if getJSON(ctx, c, m.URL+"/status", &doc) == nil {
			rounds[m.Name] = doc.Round.ID
		}
	}
	return rounds
}

// waitReplicas waits until every machine of ms reports K = k and has committed a round newer
// than the one it was in before the change (rounds are named by revision: the change's round
// comes after the write).
func waitReplicas(ctx context.Context, c *http.Client, ms []statusTarget, before map[string]int64, k int, wait time.Duration, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		var pending []string
		for _, m := range ms {
			var doc statusDoc
			err := getJSON(ctx, c, m.URL+"/status", &doc)
			if err != nil || doc.Replicas != k || doc.Round.ID <= before[m.Name] ||
				doc.Round.Phase != "idle" || doc.Round.LastResult != "committed" {
				pending = append(pending, m.Name)
			}
		}
		if len(pending) == 0 {
			fmt.Fprintf(out, "every running machine re-placed with replicas %d (alliancectl status shows the holders)\n", k)
			return nil
		}
		select {
		case <-ctx.Done():
			slices.Sort(pending)
			return fmt.Errorf("after %v, not yet re-placed with replicas %d: %v", wait, k, pending)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// withReplicas is a command line whose --replicas value (if it has one) is k.
func withReplicas(args []string, k int) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if a == "--replicas" && i+1 < len(out) {
			out[i+1] = strconv.Itoa(k)
		}
	}
	return out
}

// replicasOf is the K alliancectl last set for alliance (0: never changed).
func (s *State) replicasOf(alliance string) int {
	for _, a := range s.Alliances {
		if a.Name == alliance {
			return a.Replicas
		}
	}
	return 0
}
