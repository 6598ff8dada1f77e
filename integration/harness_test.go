package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"flightalliance/internal/freeport"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binDir holds the binaries built once for the whole package.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "flightalliance-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "flightalliance/cmd/...")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the binaries:", err)
		os.Exit(2)
	}
	binDir = dir
	if err := setupPKI(dir); err != nil {
		fmt.Fprintln(os.Stderr, "making the test certificates:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// freeAddr returns a loopback address nobody listens on now, below the kernel's ephemeral range
// (see internal/freeport: a killed machine's restart must be able to bind its ports again).
func freeAddr(t testing.TB) string {
	t.Helper()
	addrs, err := freeport.Addrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return addrs[0]
}

// proc is a process this test started; it is only ever signalled by its own pid.
type proc struct {
	name string
	bin  string
	args []string
	log  string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

func startProc(t testing.TB, dir, name, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, bin: filepath.Join(binDir, bin), args: args, log: filepath.Join(dir, name+".log")}
	p.start(t)
	t.Cleanup(func() {
		p.kill()
		// Keep the whole log where the test's temporary directory will not take it away: on a
		// failure, or always when FA_KEEP_LOGS names a folder (a benchmark's logs, with
		// GODEBUG=gctrace=1 say).
		keep := os.Getenv("FA_KEEP_LOGS")
		if t.Failed() {
			keep = keptLogsDir(t)
		}
		if keep != "" {
			if os.MkdirAll(keep, 0o755) == nil {
				if b, err := os.ReadFile(p.log); err == nil {
					_ = os.WriteFile(filepath.Join(keep, filepath.Base(p.log)), b, 0o644)
				}
			}
		}
		if t.Failed() || os.Getenv("FA_TEST_LOGS") != "" {
			tail, _ := os.ReadFile(p.log)
			if len(tail) > 6000 {
				tail = tail[len(tail)-6000:]
			}
			t.Logf("--- last lines of %s:\n%s", p.log, tail)
		}
	})
	return p
}

// keptLogsDir is where a failed test keeps its logs (startProc copies them there).
func keptLogsDir(t testing.TB) string {
	return filepath.Join(os.TempDir(), "flightalliance-failed", strings.ReplaceAll(t.Name(), "/", "_"))
}

func (p *proc) start(t testing.TB) {
	t.Helper()
	logf, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(logf, "=== %s %s\n", p.bin, strings.Join(p.args, " "))
	cmd := exec.Command(p.bin, p.args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		t.Fatalf("start %s: %v", p.name, err)
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

// pid is the process's id (of its last start).
func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd.Process.Pid
}

// kill sends SIGKILL to the process (if it still runs) and waits for it.
func (p *proc) kill() {
	p.signal(syscall.SIGKILL)
	p.wait(10 * time.Second)
}

func (p *proc) signal(sig syscall.Signal) {
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

// wait waits for the process to exit and returns its exit code (-1 on timeout).
func (p *proc) wait(d time.Duration) int {
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

func (p *proc) running() bool {
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

// eventually polls cond until it returns nil or the timeout passes, then fails with its last error.
func eventually(t testing.TB, timeout time.Duration, what string, cond func() error) time.Duration {
	t.Helper()
	start := time.Now()
	var last error
	for time.Since(start) < timeout {
		if last = cond(); last == nil {
			return time.Since(start)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: not within %v: %v", what, timeout, last)
	return 0
}

var httpClient = &http.Client{Timeout: 5 * time.Second}

func getJSON(ctx context.Context, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", url, resp.Status, bytes.TrimSpace(body))
	}
	return json.Unmarshal(body, out)
}
