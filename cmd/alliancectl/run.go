package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func cmdRun(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("run", "run [flags]   (up 3 in the foreground; Ctrl-C stops everything)", out)
	cfg := upConfig{Machines: 3}
	bin := upFlags(fs, &cfg)
	fs.IntVar(&cfg.Machines, "machines", 3, "machines per alliance")
	grace := fs.Duration("timeout", 10*time.Second, "at the end, how long each process may take to exit after SIGTERM before SIGKILL")
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	if err := cfg.validate(*dir, *bin); err != nil {
		return err
	}
	s, err := up(ctx, cfg, out)
	if err != nil {
		return err
	}
	printHints(out, s, true)
	fmt.Fprintln(out, "\nRunning in the foreground. Ctrl-C (or SIGTERM) stops every process it started.")
	if !waitStopped(ctx, s.Dir) {
		fmt.Fprintln(out, "state.json is gone (`down` ran elsewhere); nothing left to stop")
		return nil
	}

	fmt.Fprintln(out, "\nstopping (Ctrl-C again to SIGKILL at once)")
	// A second signal cancels the grace period: whatever still runs is SIGKILLed.
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(again)
	stopCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	go func() {
		select {
		case <-again:
			cancel()
		case <-stopCtx.Done():
		}
	}()
	cur, err := loadState(s.Dir)
	if errors.Is(err, errNoState) {
		return nil
	}
	if err != nil {
		return err
	}
	return stopAll(stopCtx, cur, *grace, out)
}

// waitStopped waits for ctx to end (true) or for the run's state.json to vanish because
// `down` ran in another terminal (false).
func waitStopped(ctx context.Context, dir string) bool {
	for {
		select {
		case <-ctx.Done():
			return true
		case <-time.After(time.Second):
		}
		if _, err := loadState(dir); errors.Is(err, errNoState) {
			return false
		}
	}
}
