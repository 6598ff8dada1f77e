package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// treeAlliance is what an alliance's coordination tree says of it (docs/api.md, "The coordination
// tree"), read with alliancectl's own etcd client.
type treeAlliance struct {
	Name     string
	Replicas int                          // /alliances/<a>/config; 0 when unreadable
	Machines []machineEntry               // /alliances/<a>/machines/*, by name: the machines whose session lives
	Holders  map[string]map[string]string // seller → machine → PRIMARY or BACKUP (/alliances/<a>/sellers/)
	Catalog  []string                     // every seller the alliance knows (/alliances/<a>/catalog/)
	Bookings int64                        // booking records (/alliances/<a>/bookings/)
}

// etcdMember is one member of the alliance's etcd cluster.
type etcdMember struct {
	Name       string
	ID         uint64
	ClientURLs []string
	Learner    bool
}

// etcdView is the etcd cluster as its endpoints answer: its members, and each endpoint's answer.
type etcdView struct {
	Members  []etcdMember
	LeaderID uint64            // 0: no endpoint knows a leader
	Answers  map[string]string // endpoint → the member that answered ("" when it did not)
	Failures []error           // why the endpoints that did not answer did not
}

// leader is the leader's name, "" when unknown.
func (v *etcdView) leader() string {
	for _, m := range v.Members {
		if m.ID == v.LeaderID {
			return m.Name
		}
	}
	return ""
}

// etcdClient is alliancectl's etcd client of the remote endpoints.
func (rm *remote) etcdClient(endpoints []string) (*clientv3.Client, error) {
	cfg := clientv3.Config{Endpoints: endpoints, DialTimeout: 3 * time.Second, Logger: zap.NewNop()}
	if strings.HasPrefix(endpoints[0], "https://") {
		cfg.TLS = rm.tls
	}
	return clientv3.New(cfg)
}

// reachEndpoints asks each endpoint for its version over HTTPS (etcd's /version), which tells
// a wrong CA, a refused certificate or a dead address apart better than a gRPC dial does, and
// returns those that answered; none answering is an error naming --endpoints (or flagName).
func (rm *remote) reachEndpoints(ctx context.Context, flagName string, endpoints []string) ([]string, []error, error) {
	c := rm.httpClient(3 * time.Second)
	defer c.CloseIdleConnections()
	var ok []string
	var failed []error
	for _, ep := range endpoints {
		var v struct {
			Server string `json:"etcdserver"`
		}
		if err := getJSON(ctx, c, ep+"/version", &v); err != nil {
			failed = append(failed, rm.explain(flagName, ep, err))
			continue
		}
		ok = append(ok, ep)
	}
	if len(ok) == 0 {
		return nil, failed, joinErrors(failed)
	}
	return ok, failed, nil
}

// joinErrors is errs on one line each, the first one first.
func joinErrors(errs []error) error {
	var lines []string
	for _, e := range errs {
		lines = append(lines, e.Error())
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n  "))
}

// readEtcd reads the cluster's members and each endpoint's view of the leader.
func readEtcd(ctx context.Context, cli *clientv3.Client, endpoints []string) (*etcdView, error) {
	v := &etcdView{Answers: map[string]string{}}
	mctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ml, err := cli.MemberList(mctx)
	if err != nil {
		return nil, fmt.Errorf("etcd member list: %w", err)
	}
	for _, m := range ml.Members {
		v.Members = append(v.Members, etcdMember{Name: m.Name, ID: m.ID, ClientURLs: m.ClientURLs, Learner: m.IsLearner})
	}
	slices.SortFunc(v.Members, func(a, b etcdMember) int { return strings.Compare(a.Name, b.Name) })
	for _, ep := range endpoints {
		sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		st, err := cli.Status(sctx, ep)
		cancel()
		if err != nil {
			v.Answers[ep] = ""
			v.Failures = append(v.Failures, fmt.Errorf("--endpoints: %s: %w", ep, err))
			continue
		}
		for _, m := range v.Members {
			if m.ID == st.Header.MemberId {
				v.Answers[ep] = m.Name
			}
		}
		if st.Leader != 0 {
			v.LeaderID = st.Leader
		}
	}
	return v, nil
}

// treeAllianceNames lists the alliances that have keys in the tree, skipping over each one's keys
// (there may be many bookings) with one read per alliance.
func treeAllianceNames(ctx context.Context, cli *clientv3.Client) ([]string, error) {
	const prefix = "/alliances/"
	var names []string
	from := prefix
	for {
		resp, err := cli.Get(ctx, from, clientv3.WithFromKey(), clientv3.WithLimit(1), clientv3.WithKeysOnly())
		if err != nil {
			return nil, err
		}
		if len(resp.Kvs) == 0 || !strings.HasPrefix(string(resp.Kvs[0].Key), prefix) {
			return names, nil
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(string(resp.Kvs[0].Key), prefix), "/")
		names = append(names, name)
		from = prefix + name + "0" // '0' follows '/': past every key of this alliance
	}
}

// readTreeAlliance reads what the tree says of alliance a.
func readTreeAlliance(ctx context.Context, cli *clientv3.Client, a string) (*treeAlliance, error) {
	root := "/alliances/" + a + "/"
	t := &treeAlliance{Name: a, Holders: map[string]map[string]string{}}
	cfg, err := cli.Get(ctx, root+"config")
	if err != nil {
		return nil, err
	}
	if len(cfg.Kvs) > 0 {
		var settings struct {
			Replicas int `json:"replicas"`
		}
		if json.Unmarshal(cfg.Kvs[0].Value, &settings) == nil {
			t.Replicas = settings.Replicas
		}
	}
	machines, err := cli.Get(ctx, root+"machines/", clientv3.WithPrefix())
	if err != nil {
		return nil, err
	}
	for _, kv := range machines.Kvs {
		var e machineEntry
		if err := json.Unmarshal(kv.Value, &e); err != nil {
			return nil, fmt.Errorf("%s: %w", kv.Key, err)
		}
		t.Machines = append(t.Machines, e)
	}
	sellers, err := cli.Get(ctx, root+"sellers/", clientv3.WithPrefix())
	if err != nil {
		return nil, err
	}
	for _, kv := range sellers.Kvs {
		seller, machine, ok := strings.Cut(strings.TrimPrefix(string(kv.Key), root+"sellers/"), "/")
		if !ok {
			continue
		}
		if t.Holders[seller] == nil {
			t.Holders[seller] = map[string]string{}
		}
		t.Holders[seller][machine] = string(kv.Value)
	}
	catalog, err := cli.Get(ctx, root+"catalog/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return nil, err
	}
	for _, kv := range catalog.Kvs {
		t.Catalog = append(t.Catalog, strings.TrimPrefix(string(kv.Key), root+"catalog/"))
	}
	bookings, err := cli.Get(ctx, root+"bookings/", clientv3.WithPrefix(), clientv3.WithCountOnly())
	if err != nil {
		return nil, err
	}
	t.Bookings = bookings.Count
	return t, nil
}

// holderView is the tree's seller entries as a view (one entry per machine), for sellerLine;
// sellers of the catalog that no machine holds are listed with no holder.
func (t *treeAlliance) holderView() ([]machineEntry, []string) {
	byMachine := map[string]*machineEntry{}
	for seller, holders := range t.Holders {
		for machine, role := range holders {
			e := byMachine[machine]
			if e == nil {
				e = &machineEntry{Name: machine}
				byMachine[machine] = e
			}
			if role == "PRIMARY" {
				e.Primaries = append(e.Primaries, seller)
			} else {
				e.Backups = append(e.Backups, seller)
			}
		}
	}
	var view []machineEntry
	for _, name := range sortedKeys(byMachine) {
		view = append(view, *byMachine[name])
	}
	var unheld []string
	for _, s := range t.Catalog {
		if len(t.Holders[s]) == 0 {
			unheld = append(unheld, s)
		}
	}
	return view, unheld
}
