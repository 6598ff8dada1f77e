package hangup

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// TestDoReloadsOnEverySIGHUP: each SIGHUP sent to the process is one call of reload (and does not
// end the process).
func TestDoReloadsOnEverySIGHUP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := make(chan struct{}, 4)
	Do(ctx, func() { calls <- struct{}{} })
	for i := range 3 {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("SIGHUP %d: no reload within 10s", i+1)
		}
	}
}
