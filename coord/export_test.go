package coord

import (
	"context"
	"log/slog"

	"go.etcd.io/etcd/client/v3/concurrency"
)

// The tests of coord are the external package coord_test, so that they can run the recipes
// against real members started through coord/member (which imports coord: an internal test could
// not). This file, compiled only into those tests, lends them the few internals they check.

// CheckPath is checkPath.
var CheckPath = checkPath

// FollowBackoff is followBackoff.
var FollowBackoff = followBackoff

// Follower is Follow's loop with its I/O given by the test (see follower).
type Follower struct {
	Dir    string
	List   func(ctx context.Context) ([]Child, int64, error)
	Watch  func(ctx context.Context, from int64) <-chan Event
	Closed func() bool
	Log    *slog.Logger
}

// Run runs the loop until ctx ends or the client is closed.
func (f Follower) Run(ctx context.Context, apply func(Event)) {
	follower{dir: f.Dir, list: f.List, watch: f.Watch, closed: f.Closed, log: f.Log}.run(ctx, apply)
}

// Current is the etcd session that keeps s's lease alive now.
func (s *Session) Current() *concurrency.Session { return s.current() }
