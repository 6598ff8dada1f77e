package coord

import "context"

// RWMutex is a shared/exclusive lock at a path: any number of RLock
// holders, or one Lock holder. Requests are served in arrival order, so a
// waiting writer is not starved by later readers. See lock.go for the keys.
type RWMutex struct {
	t    *Tree
	s    *Session
	path string
}

// NewRWMutex returns the read/write lock at path for session s.
func NewRWMutex(t *Tree, s *Session, path string) *RWMutex {
	return &RWMutex{t: t, s: s, path: path}
}

// RLock waits for a shared grant: until no older exclusive request remains.
func (m *RWMutex) RLock(ctx context.Context) (*Grant, error) {
	return acquire(ctx, m.t, m.s, m.path, readKind, true)
}

// Lock waits for an exclusive grant: until no older request remains.
func (m *RWMutex) Lock(ctx context.Context) (*Grant, error) {
	return acquire(ctx, m.t, m.s, m.path, writeKind, true)
}

// TryRLock takes a shared grant if no exclusive request is older, else
// fails with ErrLocked.
func (m *RWMutex) TryRLock(ctx context.Context) (*Grant, error) {
	return acquire(ctx, m.t, m.s, m.path, readKind, false)
}

// TryLock takes an exclusive grant if no request is older, else fails
// with ErrLocked.
func (m *RWMutex) TryLock(ctx context.Context) (*Grant, error) {
	return acquire(ctx, m.t, m.s, m.path, writeKind, false)
}
