package coord

import "errors"

// Sentinel errors callers branch on. Returned errors wrap them with the
// offending input; test with errors.Is.
var (
	// ErrBadPath: a path is not absolute, has empty, "." or ".." segments, or
	// ends in "/".
	ErrBadPath = errors.New("coord: bad path")
	// ErrNodeExists: Create on a path that already holds a node.
	ErrNodeExists = errors.New("coord: node exists")
	// ErrNoNode: the path holds no node.
	ErrNoNode = errors.New("coord: no node")
	// ErrBadVersion: a version condition did not hold.
	ErrBadVersion = errors.New("coord: version mismatch")
	// ErrBarrierAborted: a barrier round can no longer commit.
	ErrBarrierAborted = errors.New("coord: barrier aborted")
	// ErrSessionLost: the session's lease expired or the session was closed.
	ErrSessionLost = errors.New("coord: session lost")
	// ErrLockLost: the lock is no longer held by this grant.
	ErrLockLost = errors.New("coord: lock lost")
	// ErrLockHeld: this session already holds or waits for this lock.
	ErrLockHeld = errors.New("coord: lock already requested by this session")
	// ErrLeadershipLost: a lease election's leader lost its leadership.
	ErrLeadershipLost = errors.New("coord: leadership lost")
)
