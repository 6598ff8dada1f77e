package alliance

import (
	"context"
	"time"
)

// backoff is how long to wait before retry attempt (counted from 0): 100ms, doubling, at most 3s.
func backoff(attempt int) time.Duration {
	d := 100 * time.Millisecond << min(attempt, 5)
	return min(d, 3*time.Second)
}

// waitBackoff waits backoff(attempt), or until ctx ends; it reports whether ctx is still live.
func waitBackoff(ctx context.Context, attempt int) bool {
	t := time.NewTimer(backoff(attempt))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// retry calls try with attempt 0, 1, 2, … until it succeeds, waiting backoff between attempts.
// It returns nil after a success, or ctx's error once ctx ends. try reports its own failures.
func retry(ctx context.Context, try func(attempt int) error) error {
	for attempt := 0; ; attempt++ {
		if try(attempt) == nil {
			return nil
		}
		if !waitBackoff(ctx, attempt) {
			return ctx.Err()
		}
	}
}
