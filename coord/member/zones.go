package member

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Zones. etcd's voters are chosen across zones — round-robin over the zones, each zone's members
// in name order — at bootstrap (Config.bootstrapPeers) and on promotion (the reconciler's
// nextVoter), so that losing any one zone, of three or more, keeps a quorum.
//
// A member's zone is, in this order: its key /coord/zones/<member name> (value: the zone), which
// every member writes for itself once it runs (a joiner before it is added), rewritten only when
// its Config.Zone changed, and deleted by whoever removes the member (next to its removal
// record); else Config.PeerZones[name]; else its own name (every member its own zone). The
// bootstrap uses PeerZones only: it happens before any key can be written, and every member must
// compute the same set.

// zonesPrefix holds one key per member name: /coord/zones/<name> = its zone.
const zonesPrefix = "/coord/zones/"

// checkZone reports whether z can name a zone: non-empty, printable, without '/', ',' or '='.
func checkZone(z string) error {
	if z == "" {
		return fmt.Errorf("empty")
	}
	if strings.ContainsAny(z, "/,=") {
		return fmt.Errorf("contains '/', ',' or '='")
	}
	for _, r := range z {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("contains the unprintable %q", r)
		}
	}
	return nil
}

// peerZone is the zone PeerZones gives member name, else its name.
func (c Config) peerZone(name string) string {
	if z, ok := c.PeerZones[name]; ok {
		return z
	}
	return name
}

// acrossZones returns up to n of names, round-robin over their zones: the zones in name order,
// each zone's names in name order — the first name of every zone, then the second of every zone,
// and so on. With every name its own zone it is the first n names in name order.
func acrossZones(names []string, zoneOf func(string) string, n int) []string {
	byZone := map[string][]string{}
	for _, name := range names {
		z := zoneOf(name)
		byZone[z] = append(byZone[z], name)
	}
	zones := slices.Sorted(maps.Keys(byZone))
	for _, z := range zones {
		slices.Sort(byZone[z])
	}
	var out []string
	for round := 0; len(out) < n; round++ {
		picked := false
		for _, z := range zones {
			if round < len(byZone[z]) && len(out) < n {
				out = append(out, byZone[z][round])
				picked = true
			}
		}
		if !picked {
			break
		}
	}
	return out
}

// candidate is one member as the choice of the next voter sees it.
type candidate struct {
	name    string
	zone    string
	learner bool
	// eligible: a learner that may be promoted now (started, and reachable from the leader).
	eligible bool
}

// nextVoter picks the learner to promote among the eligible ones: the one whose zone has the
// fewest voters now, then the smallest zone name, then the smallest member name — round-robin
// over the zones. False when no learner is eligible.
func nextVoter(members []candidate) (string, bool) {
	voters := zoneVoters(members)
	var best *candidate
	for i := range members {
		mb := &members[i]
		if !mb.learner || !mb.eligible {
			continue
		}
		if best == nil || cmp.Or(cmp.Compare(voters[mb.zone], voters[best.zone]),
			cmp.Compare(mb.zone, best.zone), cmp.Compare(mb.name, best.name)) < 0 {
			best = mb
		}
	}
	if best == nil {
		return "", false
	}
	return best.name, true
}

// zoneVoters counts the voters of every zone.
func zoneVoters(members []candidate) map[string]int {
	voters := map[string]int{}
	for _, mb := range members {
		if !mb.learner {
			voters[mb.zone]++
		}
	}
	return voters
}

// readZones reads the recorded zones, by member name. Serializable reads this member's local copy.
func readZones(ctx context.Context, cli *clientv3.Client, serializable bool) (map[string]string, error) {
	opts := []clientv3.OpOption{clientv3.WithPrefix()}
	if serializable {
		opts = append(opts, clientv3.WithSerializable())
	}
	resp, err := cli.Get(ctx, zonesPrefix, opts...)
	if err != nil {
		return nil, fmt.Errorf("coord: read zones: %w", err)
	}
	zones := make(map[string]string, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		zones[strings.TrimPrefix(string(kv.Key), zonesPrefix)] = string(kv.Value)
	}
	return zones, nil
}

// zoneOf is the zone of member name given the recorded zones: its record, else this member's own
// Zone for itself, else PeerZones, else its name.
func (m *Member) zoneOf(recorded map[string]string, name string) string {
	if z, ok := recorded[name]; ok && z != "" {
		return z
	}
	if name == m.cfg.Name {
		return m.cfg.Zone
	}
	return m.cfg.peerZone(name)
}

// putZone records zone as member name's, unless it already is (one transaction).
func putZone(ctx context.Context, cli *clientv3.Client, name, zone string) (written bool, err error) {
	key := zonesPrefix + name
	// A value comparison on a missing key fails: the put then runs.
	resp, err := cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(key), "=", zone)).
		Else(clientv3.OpPut(key, zone)).Commit()
	if err != nil {
		return false, err
	}
	return !resp.Succeeded, nil
}

// recordZone writes this member's zone record once it runs, retrying (a member may start without
// quorum) until it is written or the member stops.
func (m *Member) recordZone(ctx context.Context) {
	defer m.wg.Done()
	wait := 200 * time.Millisecond
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		written, err := putZone(pctx, m.cli, m.cfg.Name, m.cfg.Zone)
		cancel()
		if err == nil {
			if written {
				m.log.Info("coord member recorded its zone", "zone", m.cfg.Zone)
			}
			return
		}
		m.log.Debug("coord member could not record its zone yet", "zone", m.cfg.Zone, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-m.etcd.Server.StopNotify():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// forgetZone deletes a removed member's zone record (best effort: a stale record only names a
// member no longer listed, which nothing counts).
func forgetZone(ctx context.Context, cli *clientv3.Client, cfg Config, name string) {
	if _, err := cli.Delete(ctx, zonesPrefix+name); err != nil {
		cfg.Logger.Debug("coord: deleting a removed member's zone record failed", "removed", name, "err", err)
	}
}

// Zones returns the zone of every started member of the cluster, by name, as the reconciler counts
// them (its /coord/zones record, else Config.PeerZones, else its name); with Status, which says
// who votes, it shows how the voters spread over the zones. It reads this member's local copy
// (serializable), so it answers without quorum, possibly a little behind the leader.
func (m *Member) Zones(ctx context.Context) (map[string]string, error) {
	recorded, err := readZones(ctx, m.cli, true)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, mb := range m.etcd.Server.Cluster().Members() {
		if mb.Name != "" {
			out[mb.Name] = m.zoneOf(recorded, mb.Name)
		}
	}
	return out, nil
}
