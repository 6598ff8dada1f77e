package coord

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Tree is a ZooKeeper-style tree of absolute paths over etcd keys; a node's
// key is its path. Parents are implicit: creating /a/b/c does not need /a/b,
// and deleting /a/b leaves its children in place.
type Tree struct {
	cli *clientv3.Client
}

// NewTree returns a tree over cli's key space.
func NewTree(cli *clientv3.Client) *Tree { return &Tree{cli: cli} }

// Client is the etcd client the tree uses.
func (t *Tree) Client() *clientv3.Client { return t.cli }

// Stat describes a node: Version counts its writes since creation (1 after
// Create), the revisions are etcd's, and Lease is non-zero for an ephemeral
// node.
type Stat struct {
	Version        int64
	CreateRevision int64
	ModRevision    int64
	Lease          clientv3.LeaseID
}

// Child is one child of a node, as listed by ChildrenData.
type Child struct {
	Name  string
	Value []byte
	Stat  Stat
}

// Create makes a node at path holding value; ErrNodeExists if there is one.
// With Ephemeral(s) the node is deleted when s ends.
func (t *Tree) Create(ctx context.Context, path string, value []byte, opts ...CreateOption) (Stat, error) {
	op := OpCreate(path, value, opts...)
	rev, err := t.Multi(ctx, op)
	if err != nil {
		return Stat{}, unwrapMulti(err)
	}
	return Stat{Version: 1, CreateRevision: rev, ModRevision: rev, Lease: op.lease}, nil
}

// Get returns the node's value and stat; ErrNoNode if there is none.
func (t *Tree) Get(ctx context.Context, path string) ([]byte, Stat, error) {
	if err := checkPath(path, false); err != nil {
		return nil, Stat{}, err
	}
	resp, err := t.cli.Get(ctx, path)
	if err != nil {
		return nil, Stat{}, fmt.Errorf("coord: get %s: %w", path, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, Stat{}, fmt.Errorf("%w: %s", ErrNoNode, path)
	}
	kv := resp.Kvs[0]
	return kv.Value, statOf(kv.Version, kv.CreateRevision, kv.ModRevision, kv.Lease), nil
}

// Exists reports whether path holds a node, and its stat if it does.
func (t *Tree) Exists(ctx context.Context, path string) (bool, Stat, error) {
	_, st, err := t.Get(ctx, path)
	if err == nil {
		return true, st, nil
	}
	if isNoNode(err) {
		return false, Stat{}, nil
	}
	return false, Stat{}, err
}

// Set replaces the node's value, keeping its lease (an ephemeral node stays
// ephemeral). ErrNoNode if there is none; with IfVersion(v), ErrBadVersion
// unless the node's version is v.
func (t *Tree) Set(ctx context.Context, path string, value []byte, opts ...SetOption) (Stat, error) {
	if err := checkPath(path, false); err != nil {
		return Stat{}, err
	}
	o := setOptions(opts)
	if !o.hasVersion {
		// One put: etcd refuses to keep the lease of a key that does not
		// exist (ErrKeyNotFound), which is exactly the ErrNoNode case.
		resp, err := t.cli.Put(ctx, path, string(value), clientv3.WithIgnoreLease(), clientv3.WithPrevKV())
		switch {
		case errors.Is(err, rpctypes.ErrKeyNotFound):
			return Stat{}, fmt.Errorf("%w: %s", ErrNoNode, path)
		case err != nil:
			return Stat{}, fmt.Errorf("coord: set %s: %w", path, err)
		}
		prev := resp.PrevKv
		return statOf(prev.Version+1, prev.CreateRevision, resp.Header.Revision, prev.Lease), nil
	}
	cmps := []clientv3.Cmp{
		clientv3.Compare(clientv3.Version(path), ">", 0),
		clientv3.Compare(clientv3.Version(path), "=", o.version),
	}
	resp, err := t.cli.Txn(ctx).If(cmps...).
		Then(clientv3.OpPut(path, string(value), clientv3.WithIgnoreLease(), clientv3.WithPrevKV())).
		Else(clientv3.OpGet(path, clientv3.WithKeysOnly())).Commit()
	if err != nil {
		return Stat{}, fmt.Errorf("coord: set %s: %w", path, err)
	}
	if !resp.Succeeded {
		return Stat{}, checkFailure(OpSet(path, value, opts...), resp.Responses[0].GetResponseRange().Kvs)
	}
	prev := resp.Responses[0].GetResponsePut().PrevKv
	return statOf(prev.Version+1, prev.CreateRevision, resp.Header.Revision, prev.Lease), nil
}

// Delete removes the node; ErrNoNode if there is none; with IfVersion(v),
// ErrBadVersion unless the node's version is v. Children are not touched.
func (t *Tree) Delete(ctx context.Context, path string, opts ...SetOption) error {
	_, err := t.Multi(ctx, OpDelete(path, opts...))
	return unwrapMulti(err)
}

// Children returns the sorted names of path's children and the revision
// they were read at. The root "/" may be listed.
func (t *Tree) Children(ctx context.Context, path string) ([]string, int64, error) {
	if err := checkPath(path, true); err != nil {
		return nil, 0, err
	}
	prefix := childPrefix(path)
	resp, err := t.cli.Get(ctx, prefix, clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		return nil, 0, fmt.Errorf("coord: list children of %s: %w", path, err)
	}
	var names []string
	for _, kv := range resp.Kvs {
		if name, ok := childName(prefix, string(kv.Key)); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, resp.Header.Revision, nil
}

// ChildrenData returns path's children with their values and stats, sorted
// by name, as of atRevision (0 = latest), and the revision read.
func (t *Tree) ChildrenData(ctx context.Context, path string, atRevision int64) ([]Child, int64, error) {
	if err := checkPath(path, true); err != nil {
		return nil, 0, err
	}
	prefix := childPrefix(path)
	opts := []clientv3.OpOption{clientv3.WithPrefix()}
	if atRevision > 0 {
		opts = append(opts, clientv3.WithRev(atRevision))
	}
	resp, err := t.cli.Get(ctx, prefix, opts...)
	if err != nil {
		return nil, 0, fmt.Errorf("coord: list children of %s at revision %d: %w", path, atRevision, err)
	}
	var out []Child
	for _, kv := range resp.Kvs {
		if name, ok := childName(prefix, string(kv.Key)); ok {
			out = append(out, Child{Name: name, Value: kv.Value,
				Stat: statOf(kv.Version, kv.CreateRevision, kv.ModRevision, kv.Lease)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	rev := resp.Header.Revision
	if atRevision > 0 {
		rev = atRevision
	}
	return out, rev, nil
}

// Descendants returns every node below path (children, grandchildren, …) with its value and
// stat, sorted by path, and the revision read. Names are paths relative to path ("b/c").
func (t *Tree) Descendants(ctx context.Context, path string) ([]Child, int64, error) {
	if err := checkPath(path, true); err != nil {
		return nil, 0, err
	}
	prefix := childPrefix(path)
	resp, err := t.cli.Get(ctx, prefix, clientv3.WithPrefix())
	if err != nil {
		return nil, 0, fmt.Errorf("coord: list descendants of %s: %w", path, err)
	}
	out := make([]Child, 0, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		out = append(out, Child{Name: strings.TrimPrefix(string(kv.Key), prefix), Value: kv.Value,
			Stat: statOf(kv.Version, kv.CreateRevision, kv.ModRevision, kv.Lease)})
	}
	return out, resp.Header.Revision, nil
}

func statOf(version, createRev, modRev, lease int64) Stat {
	return Stat{Version: version, CreateRevision: createRev, ModRevision: modRev, Lease: clientv3.LeaseID(lease)}
}
