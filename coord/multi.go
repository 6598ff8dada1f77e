package coord

import (
	"context"
	"errors"
	"fmt"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

type opKind int

const (
	opCreate opKind = iota
	opSet
	opDelete
	opCheck
)

func (k opKind) String() string {
	return [...]string{"create", "set", "delete", "check-version"}[k]
}

// Op is one step of an atomic Multi (or of a lock-guarded write).
type Op struct {
	kind    opKind
	path    string
	value   []byte
	lease   clientv3.LeaseID
	version int64
	hasVer  bool
}

// OpCreate creates path (fails with ErrNodeExists if it exists).
func OpCreate(path string, value []byte, opts ...CreateOption) Op {
	var o createOptions
	for _, f := range opts {
		f(&o)
	}
	return Op{kind: opCreate, path: path, value: value, lease: o.lease}
}

// OpSet replaces path's value, keeping its lease (ErrNoNode, ErrBadVersion).
func OpSet(path string, value []byte, opts ...SetOption) Op {
	o := setOptions(opts)
	return Op{kind: opSet, path: path, value: value, version: o.version, hasVer: o.hasVersion}
}

// OpDelete deletes path (ErrNoNode, ErrBadVersion).
func OpDelete(path string, opts ...SetOption) Op {
	o := setOptions(opts)
	return Op{kind: opDelete, path: path, version: o.version, hasVer: o.hasVersion}
}

// OpCheckVersion requires path to exist with version v (ErrNoNode,
// ErrBadVersion); it writes nothing.
func OpCheckVersion(path string, v int64) Op {
	return Op{kind: opCheck, path: path, version: v, hasVer: true}
}

// MultiError says which op of a Multi failed; Err is one of ErrNodeExists,
// ErrNoNode, ErrBadVersion, ErrBadPath.
type MultiError struct {
	Index int
	Op    string
	Path  string
	Err   error
}

func (e *MultiError) Error() string {
	return fmt.Sprintf("coord: multi op %d (%s %s): %v", e.Index, e.Op, e.Path, e.Err)
}

func (e *MultiError) Unwrap() error { return e.Err }

// Multi applies ops atomically, all or nothing, and returns the revision of
// the write. When a condition fails nothing is written and the error is a
// *MultiError naming the first failing op. etcd refuses two writes to one
// key in the same Multi.
func (t *Tree) Multi(ctx context.Context, ops ...Op) (int64, error) {
	return t.guardedMulti(ctx, nil, ops)
}

// guard is an extra condition on a Multi: key must exist with create
// revision rev (a held lock); err is returned when it does not.
type guard struct {
	key string
	rev int64
	err error
}

// guardedMulti runs ops, under g when g is not nil.
func (t *Tree) guardedMulti(ctx context.Context, g *guard, ops []Op) (int64, error) {
	var cmps []clientv3.Cmp
	var then, els []clientv3.Op
	if g != nil {
		cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(g.key), "=", g.rev))
		els = append(els, clientv3.OpGet(g.key, clientv3.WithKeysOnly()))
	}
	for i, op := range ops {
		if err := checkPath(op.path, false); err != nil {
			return 0, &MultiError{Index: i, Op: op.kind.String(), Path: op.path, Err: err}
		}
		cmps = append(cmps, op.conditions()...)
		if w, ok := op.write(); ok {
			then = append(then, w)
		}
		els = append(els, clientv3.OpGet(op.path, clientv3.WithKeysOnly()))
	}
	resp, err := t.cli.Txn(ctx).If(cmps...).Then(then...).Else(els...).Commit()
	if err != nil {
		return 0, fmt.Errorf("coord: multi of %d ops: %w", len(ops), err)
	}
	if resp.Succeeded {
		return resp.Header.Revision, nil
	}
	rs := resp.Responses
	if g != nil {
		kvs := rs[0].GetResponseRange().Kvs
		if len(kvs) == 0 || kvs[0].CreateRevision != g.rev {
			return 0, g.err
		}
		rs = rs[1:]
	}
	for i, op := range ops {
		if err := checkFailure(op, rs[i].GetResponseRange().Kvs); err != nil {
			return 0, &MultiError{Index: i, Op: op.kind.String(), Path: op.path, Err: err}
		}
	}
	return 0, fmt.Errorf("coord: multi of %d ops failed for no visible reason", len(ops))
}

func (op Op) conditions() []clientv3.Cmp {
	switch op.kind {
	case opCreate:
		return []clientv3.Cmp{clientv3.Compare(clientv3.CreateRevision(op.path), "=", 0)}
	default:
		c := []clientv3.Cmp{clientv3.Compare(clientv3.Version(op.path), ">", 0)}
		if op.hasVer {
			c = append(c, clientv3.Compare(clientv3.Version(op.path), "=", op.version))
		}
		return c
	}
}

func (op Op) write() (clientv3.Op, bool) {
	switch op.kind {
	case opCreate:
		var opts []clientv3.OpOption
		if op.lease != clientv3.NoLease {
			opts = append(opts, clientv3.WithLease(op.lease))
		}
		return clientv3.OpPut(op.path, string(op.value), opts...), true
	case opSet:
		return clientv3.OpPut(op.path, string(op.value), clientv3.WithIgnoreLease()), true
	case opDelete:
		return clientv3.OpDelete(op.path), true
	}
	return clientv3.Op{}, false
}

// checkFailure explains why op's condition failed given the node as read
// in the same transaction, or returns nil if it held.
func checkFailure(op Op, kvs []*mvccpb.KeyValue) error {
	exists := len(kvs) > 0
	switch {
	case op.kind == opCreate && exists:
		return fmt.Errorf("%w: %s", ErrNodeExists, op.path)
	case op.kind == opCreate:
		return nil
	case !exists:
		return fmt.Errorf("%w: %s", ErrNoNode, op.path)
	case op.hasVer && kvs[0].Version != op.version:
		return fmt.Errorf("%w: %s has version %d, want %d", ErrBadVersion, op.path, kvs[0].Version, op.version)
	}
	return nil
}

// unwrapMulti turns a single-op Multi's *MultiError into its plain cause.
func unwrapMulti(err error) error {
	var me *MultiError
	if errors.As(err, &me) {
		return me.Err
	}
	return err
}

func isNoNode(err error) bool { return errors.Is(err, ErrNoNode) }
