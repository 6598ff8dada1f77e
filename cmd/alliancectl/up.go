package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func cmdUp(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("up", "up N [--alliances K] [--sellers-per-machine S] [--search 127.0.0.1:8080] [flags]", out)
	var cfg upConfig
	bin := upFlags(fs, &cfg)
	pos, err := parse(fs, args, 1, "N, the number of machines per alliance")
	if err != nil {
		return err
	}
	if cfg.Machines, err = strconv.Atoi(pos[0]); err != nil {
		return usagef("N: %q is not a number of machines", pos[0])
	}
	if err := cfg.validate(*dir, *bin); err != nil {
		return err
	}
	s, err := up(ctx, cfg, out)
	if err != nil {
		return err
	}
	printHints(out, s, false)
	return nil
}

// up starts everything cfg asks for and waits until a search answers complete. On failure it
// stops whatever it started.
func up(ctx context.Context, cfg upConfig, out io.Writer) (*State, error) {
	if err := prepareDir(ctx, cfg.Dir, out); err != nil {
		return nil, err
	}
	if !cfg.Insecure {
		var alliances []string
		for i := range cfg.Alliances {
			alliances = append(alliances, allianceName(i))
		}
		if err := runKeys(keyDir(cfg.Keys), alliances, machineNames(cfg.Machines*cfg.Alliances), out); err != nil {
			return nil, err
		}
	}
	s, err := plan(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := saveState(s); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "generated %d days of flights from %s for sellers %s in %s\n",
		cfg.Data.Days, cfg.Data.From, strings.Join(allSellers(s), ","), cfg.Data.Dir)
	fail := func(err error) (*State, error) {
		fmt.Fprintf(out, "up failed: %v\nstopping what was started\n", err)
		if cur, lerr := loadState(cfg.Dir); lerr == nil {
			_ = stopAll(context.WithoutCancel(ctx), cur, 5*time.Second, out)
		}
		return nil, err
	}
	for i := range s.Procs {
		p := &s.Procs[i]
		if err := startProc(p); err != nil {
			return fail(err)
		}
		if err := updateState(cfg.Dir, func(cur *State) error {
			q, err := cur.proc(p.Name)
			if err == nil {
				q.Pid, q.Started = p.Pid, p.Started
			}
			return err
		}); err != nil {
			return fail(err)
		}
		fmt.Fprintf(out, "started %-8s pid %-7d %s  log %s\n", p.Name, p.Pid, p.URL(), p.Log)
		if p.Kind == kindProxyd {
			if err := waitProxyd(ctx, *p, 15*time.Second); err != nil {
				return fail(err)
			}
		}
	}
	took, err := waitReady(ctx, s, cfg.Wait)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(out, "a search through %s answers complete (%v after start)\n", s.Search, took.Round(time.Millisecond))
	return s, nil
}

// prepareDir makes the run directory ready for a fresh start: it refuses while processes of an
// earlier run still run, and clears the data, etcd data and logs an earlier run left.
func prepareDir(ctx context.Context, dir string, out io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--dir: %w", err)
	}
	old, err := loadState(dir)
	switch {
	case errors.Is(err, errNoState):
	case err != nil:
		return err
	default:
		var live []string
		for _, p := range old.Procs {
			if inspect(p) != procGone {
				live = append(live, fmt.Sprintf("%s (pid %d)", p.Name, p.Pid))
			}
		}
		if len(live) > 0 {
			return fmt.Errorf("%s already has running processes: %s; stop them with `alliancectl down --dir %s`",
				dir, strings.Join(live, ", "), dir)
		}
		fmt.Fprintf(out, "%s: the earlier run's processes are all gone; starting afresh\n", dir)
	}
	for _, sub := range []string{"data", "etcd", "logs"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := os.Remove(filepath.Join(dir, stateFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
