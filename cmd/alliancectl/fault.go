package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"syscall"
	"time"
)

// target parses the flags of a command on one named process and returns the state and process.
func target(args []string, out io.Writer, name, synopsis string, more func(*flag.FlagSet)) (*State, *Proc, error) {
	fs, dir := newFlags(name, synopsis, out)
	if more != nil {
		more(fs)
	}
	pos, err := parse(fs, args, 1, "NAME, a machine name or search")
	if err != nil {
		return nil, nil, err
	}
	s, _, err := openState(*dir)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.proc(pos[0])
	if err != nil {
		return nil, nil, usageError{err}
	}
	return s, p, nil
}

func cmdKill(ctx context.Context, args []string, out io.Writer) error {
	_, p, err := target(args, out, "kill", "kill NAME   (SIGKILL)", nil)
	if err != nil {
		return err
	}
	if err := signalProc(*p, syscall.SIGKILL); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if !waitGone(wctx, *p) {
		return fmt.Errorf("%s (pid %d): SIGKILL sent, but it still runs after 10s", p.Name, p.Pid)
	}
	fmt.Fprintf(out, "%s (pid %d): SIGKILL sent; it is gone. Bring it back with `restart %s`.\n", p.Name, p.Pid, p.Name)
	return nil
}

func cmdPause(ctx context.Context, args []string, out io.Writer) error {
	return pauseResume(ctx, args, out, "pause", syscall.SIGSTOP, procPaused)
}

func cmdResume(ctx context.Context, args []string, out io.Writer) error {
	return pauseResume(ctx, args, out, "resume", syscall.SIGCONT, procRunning)
}

func pauseResume(ctx context.Context, args []string, out io.Writer, name string, sig syscall.Signal, want procState) error {
	_, p, err := target(args, out, name, name+" NAME   ("+sigName(sig)+")", nil)
	if err != nil {
		return err
	}
	if err := signalProc(*p, sig); err != nil {
		return err
	}
	deadline := time.Now().Add(5 * time.Second)
	for inspect(*p) != want {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s (pid %d): %s sent, but it is %v, not %v", p.Name, p.Pid, sigName(sig), inspect(*p), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	fmt.Fprintf(out, "%s (pid %d): %s sent; it is %v.\n", p.Name, p.Pid, sigName(sig), want)
	if want == procPaused {
		fmt.Fprintf(out, "Its lease expires after the airline's --session-ttl; `resume %s` lets it go on.\n", p.Name)
	}
	return nil
}

func cmdLeave(ctx context.Context, args []string, out io.Writer) error {
	var timeout time.Duration
	_, p, err := target(args, out, "leave", "leave NAME [--timeout 60s]   (SIGTERM: the machine hands its sellers over and exits)",
		func(fs *flag.FlagSet) {
			fs.DurationVar(&timeout, "timeout", 60*time.Second, "how long to wait for it to exit")
		})
	if err != nil {
		return err
	}
	if p.Kind != kindAirline {
		return usagef("%s is not a machine (leave is for airline servers; down stops everything)", p.Name)
	}
	_ = signalProc(*p, syscall.SIGCONT) // a paused process cannot handle SIGTERM
	if err := signalProc(*p, syscall.SIGTERM); err != nil {
		return err
	}
	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if !waitGone(wctx, *p) {
		return fmt.Errorf("%s (pid %d): SIGTERM sent, but it still runs after %v (see %s; `kill %s` forces it)",
			p.Name, p.Pid, timeout, p.Log, p.Name)
	}
	fmt.Fprintf(out, "%s (pid %d): SIGTERM sent; it left the alliance and exited in %v.\n",
		p.Name, p.Pid, time.Since(start).Round(time.Millisecond))
	return nil
}

func cmdRestart(ctx context.Context, args []string, out io.Writer) error {
	var (
		grace time.Duration
		wait  time.Duration
	)
	s, p, err := target(args, out, "restart", "restart NAME [--timeout 10s] [--wait 60s]   (same command line)",
		func(fs *flag.FlagSet) {
			fs.DurationVar(&grace, "timeout", 10*time.Second, "if it runs: how long it may take to exit after SIGTERM before SIGKILL")
			fs.DurationVar(&wait, "wait", 60*time.Second, "how long to wait for its /healthz to answer (0: do not wait)")
		})
	if err != nil {
		return err
	}
	if inspect(*p) != procGone {
		how, err := stopProc(ctx, *p, grace)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s (pid %d) was running: %s\n", p.Name, p.Pid, how)
	}
	np := *p
	if k := s.replicasOf(p.Alliance); k > 0 {
		np.Args = withReplicas(np.Args, k) // K was changed live since it started
	}
	if err := startProc(&np); err != nil {
		return err
	}
	if err := updateState(s.Dir, func(cur *State) error {
		q, err := cur.proc(p.Name)
		if err != nil {
			return err
		}
		q.Pid, q.Started, q.Args = np.Pid, np.Started, np.Args
		return nil
	}); err != nil {
		return fmt.Errorf("%s started as pid %d, but recording it failed: %w", p.Name, np.Pid, err)
	}
	fmt.Fprintf(out, "%s: started again as pid %d with the same command line (log %s)\n", p.Name, np.Pid, relPath(np.Log))
	if wait <= 0 {
		return nil
	}
	c, err := s.client(2 * time.Second)
	if err != nil {
		return err
	}
	took, err := waitHealthy(ctx, c, np, wait)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %s/healthz answers (%v after start)\n", p.Name, np.URL(), took.Round(time.Millisecond))
	return nil
}

// waitHealthy polls p's /healthz (the search server's registrations list) until it answers 200.
func waitHealthy(ctx context.Context, c *http.Client, p Proc, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := p.URL() + "/healthz"
	if p.Kind == kindSearch {
		url = p.URL() + "/Services/FlightsSearchReg/"
	}
	for {
		var v any
		err := getJSON(ctx, c, url, &v)
		if err == nil {
			return time.Since(start), nil
		}
		if inspect(p) == procGone {
			return 0, fmt.Errorf("%s (pid %d) exited; last lines of %s:\n%s", p.Name, p.Pid, p.Log, logTail(p.Log, 3000))
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return 0, fmt.Errorf("%s: no answer from %s within %v: %v (log %s)", p.Name, url, timeout, err, filepath.Base(p.Log))
			}
			return 0, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
