package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this command as a real process: the test binary re-executed with
// AIRLINE_AS_MAIN=1 is the airline command.
func TestMain(m *testing.M) {
	if os.Getenv("AIRLINE_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// process is the airline command run as a process of its own until the test ends.
type process struct {
	name   string
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	exited chan struct{} // closed once it exited and its stderr was read to the end
	err    error         // its exit, once exited is closed
}

// startProcess runs the airline command with args; the environment is the test's, without its
// FA_AIRLINE_* variables. At the end of the test it is killed if it still runs.
func startProcess(t *testing.T, name string, args ...string) *process {
	t.Helper()
	p := &process{name: name, cmd: exec.Command(os.Args[0], args...), exited: make(chan struct{})}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envPrefix) {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Env = append(p.cmd.Env, "AIRLINE_AS_MAIN=1")
	pipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.signal(t, syscall.SIGCONT)
		p.signal(t, syscall.SIGKILL)
		select {
		case <-p.exited:
		case <-time.After(20 * time.Second):
			t.Errorf("%s: no exit 20s after SIGKILL", p.name)
		}
	})
	return p
}

func (p *process) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	select {
	case <-p.exited:
		return
	default:
	}
	if err := p.cmd.Process.Signal(sig); err != nil && !strings.Contains(err.Error(), "process already finished") {
		t.Errorf("%s: %v: %v", p.name, sig, err)
	}
}

// log is what the process wrote on stderr so far.
func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// wait waits (limit at most) for the process to exit, and returns its exit.
func (p *process) wait(t *testing.T, limit time.Duration) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(limit):
		t.Fatalf("%s did not exit within %v:\n%s", p.name, limit, p.log())
		return nil
	}
}
