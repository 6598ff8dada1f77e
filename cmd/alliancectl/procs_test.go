package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startSleeper starts a real process alliancectl's way and stops it at the end of the test.
func startSleeper(t *testing.T) Proc {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	p := Proc{Name: "sleeper", Args: []string{sleep, "30"}, Log: filepath.Join(t.TempDir(), "sleeper.log")}
	if err := startProc(&p); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(p.Pid, syscall.SIGKILL) })
	return p
}

func waitState(t *testing.T, p Proc, want procState) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for inspect(p) != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) is %v, want %v", p.Name, p.Pid, inspect(p), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestInspectFollowsPauseResumeKill(t *testing.T) {
	p := startSleeper(t)
	waitState(t, p, procRunning)
	if err := signalProc(p, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, procPaused)
	if err := signalProc(p, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, procRunning)
	if err := signalProc(p, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitState(t, p, procGone) // reaped by startProc's goroutine, or a zombie: gone either way
	if err := signalProc(p, syscall.SIGKILL); !errors.Is(err, errNotRunning) {
		t.Fatalf("signalling a dead process: %v, want errNotRunning", err)
	}
}

// A pid whose command line is not the recorded one (a reused pid) must never be signalled.
func TestSignalRefusesAnotherCommandLine(t *testing.T) {
	p := startSleeper(t)
	waitState(t, p, procRunning)
	other := p
	other.Args = append(slices.Clone(p.Args[:1]), "31")
	if got := inspect(other); got != procGone {
		t.Fatalf("inspect with another command line: %v, want gone", got)
	}
	if err := signalProc(other, syscall.SIGKILL); !errors.Is(err, errNotRunning) {
		t.Fatalf("signalProc with another command line: %v, want errNotRunning", err)
	}
	time.Sleep(50 * time.Millisecond) // give a wrongly sent SIGKILL time to land before looking
	if inspect(p) != procRunning {
		t.Fatal("the process was signalled although its command line did not match")
	}
}

func TestStopProcEscalatesToSIGKILL(t *testing.T) {
	// A shell that ignores SIGTERM: only SIGKILL stops it.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	// It writes a marker once its trap is installed, so the test knows when SIGTERM is ignored.
	marker := filepath.Join(t.TempDir(), "trapped")
	p := Proc{Name: "stubborn", Args: []string{sh, "-c", "trap '' TERM; : > " + marker + "; while :; do sleep 0.05; done"},
		Log: filepath.Join(t.TempDir(), "stubborn.log")}
	if err := startProc(&p); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) })
	waitState(t, p, procRunning)
	deadline := time.Now().Add(10 * time.Second)
	for !fileExists(marker) {
		if time.Now().After(deadline) {
			t.Fatal("the shell did not install its trap within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	how, err := stopProc(context.Background(), p, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if inspect(p) != procGone || how != "did not exit within 300ms of SIGTERM; SIGKILLed" {
		t.Fatalf("stopProc: %q, process %v", how, inspect(p))
	}
}

func TestStartProcWritesTheCommandLineToTheLog(t *testing.T) {
	p := startSleeper(t)
	b, err := os.ReadFile(p.Log)
	if err != nil {
		t.Fatal(err)
	}
	if want := shellLine(p.Args); !strings.Contains(string(b), want) {
		t.Fatalf("log %q does not name the command line %q", b, want)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "a b": "'a b'", "it's": `'it'\''s'`, "": "''", "--seller=LY=/x/LY.csv": "--seller=LY=/x/LY.csv",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
