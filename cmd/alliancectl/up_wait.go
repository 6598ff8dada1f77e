package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"
)

// waitReady polls the showcase query until every alliance answers it completely and every
// alliance has settled (see settled), and fails
// early, with the log's last lines, if a process it started has exited.
func waitReady(ctx context.Context, s *State, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := s.client(5 * time.Second)
	if err != nil {
		return 0, err
	}
	names := make([]string, len(s.Alliances))
	for i, a := range s.Alliances {
		names[i] = a.Name
	}
	var last error
	for {
		cur, err := loadState(s.Dir)
		if err != nil {
			return 0, err
		}
		for _, p := range cur.Procs {
			if inspect(p) == procGone {
				return 0, fmt.Errorf("%s (pid %d) exited; last lines of %s:\n%s", p.Name, p.Pid, p.Log, logTail(p.Log, 3000))
			}
		}
		a, err := search(ctx, c, s.Search, s.Query)
		if err == nil {
			err = a.readyFor(names)
		}
		for _, n := range names {
			if err == nil {
				err = settled(ctx, c, s, n)
			}
		}
		if err == nil {
			return time.Since(start), nil
		}
		last = err
		select {
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				return 0, fmt.Errorf("no complete answer to %s within %v: %v (logs in %s)",
					searchURL(s.Search, s.Query), timeout, last, filepath.Join(s.Dir, "logs"))
			}
			return 0, fmt.Errorf("interrupted while waiting for a complete answer: %w", ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}
