package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this command as a real process: the test binary re-executed with
// SEARCH_AS_MAIN=1 is the search command.
func TestMain(m *testing.M) {
	if os.Getenv("SEARCH_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestBadFlagsNameTheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--listen", "8080"}, "--listen"},
		{[]string{"--registration-ttl", "0s"}, "--registration-ttl"},
		{[]string{"--registration-ttl", "soon"}, "-registration-ttl"},
		{[]string{"--delegate-timeout", "-1s"}, "--delegate-timeout"},
		{[]string{"--hedge-delay", "0s"}, "--hedge-delay"},
		{[]string{"--max-searches", "0"}, "--max-searches"},
		{[]string{"--queue-timeout", "-1s"}, "--queue-timeout"},
		{[]string{"--ordered-searches", "-1"}, "--ordered-searches"},
		{[]string{"--answer-cache", "-1"}, "--answer-cache"},
		{[]string{"--shutdown-timeout", "0"}, "--shutdown-timeout"},
		{[]string{"--log-level", "loud"}, "--log-level"},
		{[]string{"--nope"}, "-nope"},
		{[]string{"extra"}, "extra"},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), c.args, nil, io.Discard, &stderr, inProcess); code != exitUsage || !strings.Contains(stderr.String(), c.flag) {
			t.Errorf("search %v: exit %d, %q; want 1 naming %s", c.args, code, stderr.String(), c.flag)
		}
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, nil, io.Discard, &stderr, inProcess); code != exitOK || !strings.Contains(stderr.String(), "--registration-ttl") {
		t.Errorf("--help: exit %d, %q", code, stderr.String())
	}
}

func TestListenFailureExits2(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"--listen", "127.0.0.1:99999"}, nil, io.Discard, &stderr, inProcess); code != exitFailure {
		t.Errorf("exit %d, %s", code, stderr.String())
	}
}

// listeningRe finds where the server listens in its log, text or JSON.
var listeningRe = regexp.MustCompile(`msg="search server listening" addr=(\S+)|"msg":"search server listening","addr":"([^"]+)"`)

// listeningAddr is the address a log line says the server listens on.
func listeningAddr(line string) (string, bool) {
	m := listeningRe.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1] + m[2], true
}

// TestSIGTERMShutsDownAndExits0 runs the command as a process on a free port, waits until it
// serves, sends SIGTERM and expects exit status 0.
func TestSIGTERMShutsDownAndExits0(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--listen", "127.0.0.1:0", "--registration-ttl", "5s", "--log-level", "debug")
	// GOGC unset: the server's own target; a soft memory limit, which the start-up log must give.
	cmd.Env = append(os.Environ(), "SEARCH_AS_MAIN=1", "GOGC=", "GOMEMLIMIT=3GiB")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })

	addr := make(chan string, 1)
	var logs bytes.Buffer
	var mu sync.Mutex
	eof := make(chan struct{})
	go func() {
		defer close(eof)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			logs.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if a, ok := listeningAddr(sc.Text()); ok {
				addr <- a
			}
		}
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(20 * time.Second):
		t.Fatal("the server never said where it listens")
	}
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}

	// The garbage collector runs at the server's target (gcpercent.Search) when GOGC sets none.
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(metrics), "\ngo_gc_gogc_percent 200\n") {
		t.Errorf("/metrics has no go_gc_gogc_percent 200 (the default garbage collector target)")
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		<-eof // every log line read before Wait closes the pipe
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, logs.String())
		}
		if !strings.Contains(logs.String(), "shutting down") || !strings.Contains(logs.String(), "route=/healthz") {
			t.Errorf("logs lack the request log or the shutdown:\n%s", logs.String())
		}
		if want := `gc_percent="200 (default)" memory_limit="3072 MiB (GOMEMLIMIT)"`; !strings.Contains(logs.String(), want) {
			t.Errorf("the start-up log lacks %s:\n%s", want, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit 20s after SIGTERM")
	}
}
