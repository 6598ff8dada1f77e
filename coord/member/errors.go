package member

import "errors"

// Sentinel errors of the member's lifecycle. Returned errors wrap them with
// the offending input; test with errors.Is. Their text keeps the "coord:"
// prefix the operators' logs have always shown.
var (
	// ErrRemoved: this member was removed from the cluster.
	ErrRemoved = errors.New("coord: member removed from the cluster")
	// ErrStartTimeout: the member did not become ready in time.
	ErrStartTimeout = errors.New("coord: member start timed out")
	// ErrStopped: the embedded etcd server stopped.
	ErrStopped = errors.New("coord: etcd server stopped")
	// ErrBadConfig: the member configuration is invalid.
	ErrBadConfig = errors.New("coord: bad config")
)
