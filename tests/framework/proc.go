package framework

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Proc is a process a test started; it is only ever signalled by its own pid.
type Proc struct {
	Name string
	Log  string // its output, both streams
	bin  string
	args []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// StartProc starts the binary bin (one of the binaries Main built) as the process name, with
// args, its output in dir/name.log. When the test ends it is killed, and its log kept on a
// failure (KeptLogsDir) or when FA_KEEP_LOGS names a folder.
func StartProc(t testing.TB, dir, name, bin string, args ...string) *Proc {
	t.Helper()
	p := &Proc{Name: name, bin: Bin(bin), args: args, Log: filepath.Join(dir, name+".log")}
	p.Start(t)
	t.Cleanup(func() {
		p.Kill()
		// Keep the whole log where the test's temporary directory will not take it away: on a
		// failure, or always when FA_KEEP_LOGS names a folder (a benchmark's logs, with
		// GODEBUG=gctrace=1 say).
		keep := os.Getenv("FA_KEEP_LOGS")
		if t.Failed() {
			keep = KeptLogsDir(t)
		}
		if keep != "" {
			if os.MkdirAll(keep, 0o755) == nil {
				if b, err := os.ReadFile(p.Log); err == nil {
					_ = os.WriteFile(filepath.Join(keep, filepath.Base(p.Log)), b, 0o644)
				}
			}
		}
		if t.Failed() || os.Getenv("FA_TEST_LOGS") != "" {
			tail, _ := os.ReadFile(p.Log)
			if len(tail) > 6000 {
				tail = tail[len(tail)-6000:]
			}
			t.Logf("--- last lines of %s:\n%s", p.Log, tail)
		}
	})
	return p
}

// KeptLogsDir is where a failed test keeps its logs (StartProc copies them there).
func KeptLogsDir(t testing.TB) string {
	return filepath.Join(os.TempDir(), "flightalliance-failed", strings.ReplaceAll(t.Name(), "/", "_"))
}

// Start starts the process (again, after it ended: the same command line).
func (p *Proc) Start(t testing.TB) {
	t.Helper()
	logf, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(logf, "=== %s %s\n", p.bin, strings.Join(p.args, " "))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		t.Fatalf("start %s: %v", p.Name, err)
	}
	done := make(chan struct{})
	p.mu.Lock()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		logf.Close()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(done)
	}()
}

// Pid is the process's id (of its last start).
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd.Process.Pid
}

// Kill sends SIGKILL to the process (if it still runs) and waits for it.
func (p *Proc) Kill() {
	p.Signal(syscall.SIGKILL)
	p.Wait(10 * time.Second)
}

// Signal sends sig to the process, if it still runs.
func (p *Proc) Signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Signal(sig)
	}
}

// Wait waits for the process to exit and returns its exit code (-1 on timeout).
func (p *Proc) Wait(d time.Duration) int {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return -1
	}
	select {
	case <-done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		return -1
	}
}

// Running reports whether the process runs now.
func (p *Proc) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}
