package coord

import clientv3 "go.etcd.io/etcd/client/v3"

// CreateOption modifies Create and OpCreate.
type CreateOption func(*createOptions)

type createOptions struct {
	lease clientv3.LeaseID
}

// Ephemeral binds the new node to s: it is deleted when s ends.
func Ephemeral(s *Session) CreateOption {
	return func(o *createOptions) { o.lease = s.Lease() }
}

// SetOption modifies Set, Delete, OpSet and OpDelete.
type SetOption func(*setOpts)

type setOpts struct {
	version    int64
	hasVersion bool
}

// IfVersion makes the write conditional on the node's current version.
func IfVersion(v int64) SetOption {
	return func(o *setOpts) { o.version, o.hasVersion = v, true }
}

func setOptions(opts []SetOption) setOpts {
	var o setOpts
	for _, f := range opts {
		f(&o)
	}
	return o
}
