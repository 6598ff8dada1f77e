package hangup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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

// TestASIGHUPAfterDoEndsDoesNotEndTheProcess: once ctx has ended (a daemon leaving gracefully), a
// SIGHUP still does not end the process. It runs in a child process of the test binary, which
// would die of the SIGHUP otherwise.
func TestASIGHUPAfterDoEndsDoesNotEndTheProcess(t *testing.T) {
	if os.Getenv("HANGUP_CHILD") == "1" {
		ctx, cancel := context.WithCancel(context.Background())
		Do(ctx, func() {})
		baseline := runtime.NumGoroutine()
		cancel()
		for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() >= baseline && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond) // until Do's goroutine has returned
		}
		_ = syscall.Kill(syscall.Getpid(), syscall.SIGHUP)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if !hangupPending(t) { // delivered, and the process is still here
				fmt.Println("alive")
				break
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestASIGHUPAfterDoEndsDoesNotEndTheProcess$")
	cmd.Env = append(os.Environ(), "HANGUP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "alive") {
		t.Fatalf("the process after Do's context ended and a SIGHUP: %v, output %q", err, out)
	}
}

// hangupPending reports whether a SIGHUP sent to the process waits to be delivered (the
// process's set of pending signals, ShdPnd in /proc/self/status, has SIGHUP's bit).
func hangupPending(t *testing.T) bool {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		for _, field := range []string{"ShdPnd:", "SigPnd:"} {
			if hex, ok := strings.CutPrefix(line, field); ok {
				mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
				if err != nil {
					t.Fatal(err)
				}
				if mask&(1<<(syscall.SIGHUP-1)) != 0 {
					return true
				}
			}
		}
	}
	return false
}
