package integration

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"
)

// startChromium starts a headless Chromium with a DevTools port, in a process group of its own
// (its helpers die with it), and returns its DevTools WebSocket URL. The test kills the group,
// by its id, when it ends. spki, when not "", is the public key hash of the secure search
// server it will visit (the test CA is not in Chromium's trust store).
func startChromium(ctx context.Context, t *testing.T, spki string) string {
	t.Helper()
	profile := t.TempDir()
	args := []string{"--headless", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		"--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check", "--disable-gpu",
		"--disable-dev-shm-usage", "--disable-extensions", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--metrics-recording-only", "--mute-audio"}
	if spki != "" {
		args = append(args, "--ignore-certificate-errors-spki-list="+spki)
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	cmd := exec.Command(chromiumPath, append(args, "about:blank")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", chromiumPath, err)
	}
	pgid := cmd.Process.Pid
	logPath := filepath.Join(t.TempDir(), "chromium.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Wait()
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("--- chromium's log:\n%s", lastBytes(b, 4000))
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		for sc.Scan() {
			fmt.Fprintln(logf, sc.Text())
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case ws := <-found:
		return ws
	case <-time.After(30 * time.Second):
	case <-ctx.Done():
	}
	t.Fatalf("%s did not open its DevTools port within 30s (log %s)", chromiumPath, logPath)
	return ""
}

func lastBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
