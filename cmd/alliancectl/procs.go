package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// procState is what the operating system says about a recorded process.
type procState int

const (
	procGone    procState = iota // no such pid, a zombie, or a pid reused by another command line
	procRunning                  // runs the recorded command line
	procPaused                   // runs it, stopped by SIGSTOP
)

func (s procState) String() string {
	switch s {
	case procRunning:
		return "running"
	case procPaused:
		return "paused"
	default:
		return "gone"
	}
}

// inspect says whether p.Pid still runs p.Args. It reads /proc where there is one and asks ps
// elsewhere; any doubt answers procGone, so that a reused pid is never signalled.
func inspect(p Proc) procState {
	if p.Pid <= 0 {
		return procGone
	}
	if _, err := os.Stat("/proc/self/cmdline"); err == nil {
		return inspectProc(p)
	}
	return inspectPS(p)
}

func inspectProc(p Proc) procState {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.Pid))
	if err != nil || !bytes.Equal(cmdline, nulJoin(p.Args)) {
		return procGone // a zombie's cmdline is empty
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid))
	if err != nil {
		return procGone
	}
	// The state is the first field after the parenthesised command name, which may hold spaces.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return procGone
	}
	switch stat[i+2] {
	case 'Z', 'X', 'x':
		return procGone
	case 'T', 't':
		return procPaused
	}
	return procRunning
}

func inspectPS(p Proc) procState {
	out, err := exec.Command("ps", "-o", "state=", "-o", "command=", "-p", strconv.Itoa(p.Pid)).Output()
	if err != nil {
		return procGone
	}
	state, command, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if strings.TrimSpace(command) != strings.Join(p.Args, " ") || strings.HasPrefix(state, "Z") {
		return procGone
	}
	if strings.HasPrefix(state, "T") {
		return procPaused
	}
	return procRunning
}

func nulJoin(args []string) []byte {
	var b bytes.Buffer
	for _, a := range args {
		b.WriteString(a)
		b.WriteByte(0)
	}
	return b.Bytes()
}

// errNotRunning says a process is not running its recorded command line, so it was not signalled.
var errNotRunning = errors.New("not running (or its pid now belongs to another command)")

// signalProc sends sig to p.Pid, only if that pid still runs p's recorded command line.
func signalProc(p Proc, sig syscall.Signal) error {
	if inspect(p) == procGone {
		return fmt.Errorf("%s (pid %d): %w", p.Name, p.Pid, errNotRunning)
	}
	if err := syscall.Kill(p.Pid, sig); err != nil {
		return fmt.Errorf("%s (pid %d): %s: %w", p.Name, p.Pid, sigName(sig), err)
	}
	return nil
}

// waitGone polls until p no longer runs its command line; false when ctx ends first.
func waitGone(ctx context.Context, p Proc) bool {
	for inspect(p) != procGone {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}

// stopProc stops p: SIGCONT (a paused process cannot handle SIGTERM), SIGTERM, and SIGKILL if
// it has not exited within grace or when ctx ends. It reports how it ended.
func stopProc(ctx context.Context, p Proc, grace time.Duration) (string, error) {
	if inspect(p) == procGone {
		return "was not running", nil
	}
	_ = signalProc(p, syscall.SIGCONT)
	if err := signalProc(p, syscall.SIGTERM); err != nil {
		if errors.Is(err, errNotRunning) {
			return "exited", nil
		}
		return "", err
	}
	start := time.Now()
	tctx, cancel := context.WithTimeout(ctx, grace)
	gone := waitGone(tctx, p)
	cancel()
	if gone {
		return fmt.Sprintf("exited after SIGTERM in %v", time.Since(start).Round(time.Millisecond)), nil
	}
	if err := signalProc(p, syscall.SIGKILL); err != nil && !errors.Is(err, errNotRunning) {
		return "", err
	}
	kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if !waitGone(kctx, p) {
		return "", fmt.Errorf("%s (pid %d) still runs after SIGKILL", p.Name, p.Pid)
	}
	return fmt.Sprintf("did not exit within %v of SIGTERM; SIGKILLed", grace), nil
}

func sigName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGSTOP:
		return "SIGSTOP"
	case syscall.SIGCONT:
		return "SIGCONT"
	}
	return sig.String()
}

// startProc starts p.Args in its own session (so a Ctrl-C in the terminal reaches alliancectl
// only, and `up` can exit while its processes run on), output appended to p.Log, stdin empty.
// It sets p.Pid and p.Started. While alliancectl runs (as `run` does) it reaps the child when
// it exits; once alliancectl exits, init does.
func startProc(p *Proc) error {
	logf, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("%s: log file: %w", p.Name, err)
	}
	fmt.Fprintf(logf, "=== %s alliancectl started: %s\n", time.Now().Format(time.RFC3339), shellLine(p.Args))
	cmd := exec.Command(p.Args[0], p.Args[1:]...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("starting %s: %w", p.Name, err)
	}
	logf.Close()
	p.Pid, p.Started = cmd.Process.Pid, time.Now()
	go func() { _ = cmd.Wait() }()
	return nil
}

// shellLine quotes args for a POSIX shell, for messages a user can paste.
func shellLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// logTail returns the last n bytes of a log file, for error messages.
func logTail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if len(b) > n {
		b = b[len(b)-n:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}
