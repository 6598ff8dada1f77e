package member

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// RemovalReason says why a member was removed from the cluster.
type RemovalReason string

const (
	// RemovedUnreachable: the leader's reconciler could not probe the member's peer URLs for
	// longer than the dead-member grace (or a joiner's bound).
	RemovedUnreachable RemovalReason = "unreachable"
	// RemovedStale: a joiner removed an older member with its own name or peer URL — a
	// previous life of the same machine, or a join that failed half-way.
	RemovedStale RemovalReason = "stale"
	// RemovedLeave: the member removed itself on a clean leave.
	RemovedLeave RemovalReason = "leave"
)

// removalsPrefix holds the last removal of each member name: /coord/removals/<name>, JSON of a
// Removal. Every machine and an operator (etcdctl get --prefix /coord/removals/) see who
// removed whom and why, after the removed member itself is gone. One key per name, overwritten,
// so the folder stays as small as the set of names the cluster ever had.
const removalsPrefix = "/coord/removals/"

// maxRemovalError bounds the probe error kept in a record.
const maxRemovalError = 300

// Removal is one member removed from the cluster: which, by whom, why and when.
type Removal struct {
	Member string        `json:"member"` // the removed member's name ("unstarted-<id>" if it never started)
	ID     string        `json:"id"`     // its etcd ID, hex
	By     string        `json:"by"`     // the member that removed it
	Reason RemovalReason `json:"reason"`
	Error  string        `json:"error,omitempty"` // why it was judged unreachable: the last probe's error
	At     time.Time     `json:"at"`
}

// newRemoval describes the removal of member name (id) by by, now.
func newRemoval(name string, id uint64, by string, reason RemovalReason, cause error) Removal {
	if name == "" {
		name = fmt.Sprintf("unstarted-%x", id)
	}
	r := Removal{Member: name, ID: fmt.Sprintf("%x", id), By: by, Reason: reason, At: time.Now().UTC().Truncate(time.Second)}
	if cause != nil {
		r.Error = cause.Error()
		if len(r.Error) > maxRemovalError {
			r.Error = r.Error[:maxRemovalError] + "…"
		}
	}
	return r
}

// recordRemoval is called after a successful MemberRemove: it writes r under removalsPrefix
// through cli and deletes the removed member's zone record (best effort: the removal stands
// whether or not they are written), and then calls cfg.OnRemoval. It holds no lock.
func recordRemoval(ctx context.Context, cli *clientv3.Client, cfg Config, r Removal) {
	if b, err := json.Marshal(r); err == nil {
		if _, err := cli.Put(ctx, removalsPrefix+r.Member, string(b)); err != nil {
			cfg.Logger.Warn("coord: recording a member removal failed", "removed", r.Member, "reason", r.Reason, "err", err)
		}
	}
	forgetZone(ctx, cli, cfg, r.Member)
	if cfg.OnRemoval != nil {
		cfg.OnRemoval(r)
	}
}

// Removals returns the last recorded removal of every member name, sorted by name. It reads
// this member's local copy (serializable), so it answers without quorum, possibly a little
// behind the leader.
func (m *Member) Removals(ctx context.Context) ([]Removal, error) {
	resp, err := m.cli.Get(ctx, removalsPrefix, clientv3.WithPrefix(), clientv3.WithSerializable())
	if err != nil {
		return nil, fmt.Errorf("coord: read removals: %w", err)
	}
	out := make([]Removal, 0, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		var r Removal
		if err := json.Unmarshal(kv.Value, &r); err != nil {
			m.log.Warn("coord: unreadable removal record", "key", string(kv.Key), "err", err)
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Member < out[j].Member })
	return out, nil
}
