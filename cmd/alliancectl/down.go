package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

func cmdDown(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("down", "down [--timeout 10s]", out)
	grace := fs.Duration("timeout", 10*time.Second, "how long each process may take to exit after SIGTERM before SIGKILL")
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	abs, err := absDir("--dir", *dir)
	if err != nil {
		return err
	}
	if *grace <= 0 {
		return usagef("--timeout: %v, want a positive duration", *grace)
	}
	s, err := loadState(abs)
	if errors.Is(err, errNoState) {
		fmt.Fprintf(out, "%s: nothing to stop (no state.json)\n", abs)
		return nil
	}
	if err != nil {
		return err
	}
	return stopAll(ctx, s, *grace, out)
}

// stopAll stops every process of s that still runs its recorded command line: the airline
// servers together (each leaves its alliance on SIGTERM), then the search server, then the
// proxy daemon (the machines talk through it while they leave). Once all are
// gone it removes state.json; logs, data and etcd data stay for a post-mortem.
func stopAll(ctx context.Context, s *State, grace time.Duration, out io.Writer) error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	stop := func(p Proc) {
		defer wg.Done()
		how, err := stopProc(ctx, p, grace)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
			fmt.Fprintf(out, "%-8s pid %-7d %v\n", p.Name, p.Pid, err)
			return
		}
		fmt.Fprintf(out, "%-8s pid %-7d %s\n", p.Name, p.Pid, how)
	}
	for _, kind := range []string{kindAirline, kindSearch, kindProxyd} {
		for _, p := range s.Procs {
			if p.Kind == kind {
				wg.Add(1)
				go stop(p)
			}
		}
		wg.Wait()
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("some processes may still run; state.json kept: %w", err)
	}
	unlock, err := lockDir(s.Dir)
	if err != nil {
		return err
	}
	defer unlock()
	// A process started meanwhile (say `restart` in another terminal) keeps the state file.
	if cur, err := loadState(s.Dir); err == nil {
		for _, p := range cur.Procs {
			if inspect(p) != procGone {
				return fmt.Errorf("%s (pid %d) was started while stopping; run down again", p.Name, p.Pid)
			}
		}
	}
	if err := os.Remove(filepath.Join(s.Dir, stateFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	fmt.Fprintf(out, "all processes of %s stopped; logs stay in %s\n", s.Dir, filepath.Join(s.Dir, "logs"))
	return nil
}
