// Package hangup runs a daemon's reload on SIGHUP: the airline server reads its token file again,
// the search server its trust file.
package hangup

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Do calls reload on every SIGHUP the process receives until ctx ends, one call at a time, from a
// goroutine of its own. From its return on, a SIGHUP no longer ends the process (Go's default):
// it is a reload until ctx ends, and nothing after — the process may still be leaving gracefully
// then (an airline server's leave takes up to 30 s), and a SIGHUP sent to reload must not cut
// that short. So the signal stays caught for good: signal.Stop would give it back its default
// action, and signal.Ignore would undo every other caller's Notify too.
func Do(ctx context.Context, reload func()) {
	hangups := make(chan os.Signal, 1) // never blocks the signal package: a SIGHUP beyond one waiting is dropped
	signal.Notify(hangups, syscall.SIGHUP)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hangups:
				reload()
			}
		}
	}()
}
