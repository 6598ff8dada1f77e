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
// it is a reload.
func Do(ctx context.Context, reload func()) {
	hangups := make(chan os.Signal, 1)
	signal.Notify(hangups, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hangups)
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
