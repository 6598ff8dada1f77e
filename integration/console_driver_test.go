package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// consoleDriver is console.js driving the page: one JSON step a line in, one answer a line out.
type consoleDriver struct {
	in      io.WriteCloser
	answers chan string
	shotDir string
	taken   []string
}

type stepAnswer struct {
	OK              bool            `json:"ok"`
	Data            json.RawMessage `json:"data"`
	Error           string          `json:"error"`
	Screenshot      string          `json:"screenshot"`
	ScreenshotError string          `json:"screenshotError"`
	Problems        []string        `json:"problems"`
}

func startConsoleDriver(ctx context.Context, t *testing.T, node, dir, ws, base string) *consoleDriver {
	t.Helper()
	shotDir := filepath.Join(t.TempDir(), "screenshots")
	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "console.js", ws, base, shotDir)
	cmd.Dir = dir
	logPath := filepath.Join(t.TempDir(), "console-js.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logf
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start node console.js: %v", err)
	}
	d := &consoleDriver{in: in, answers: make(chan string), shotDir: shotDir}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
		for sc.Scan() {
			d.answers <- sc.Text()
		}
		close(d.answers)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logf.Close()
		if b, _ := os.ReadFile(logPath); t.Failed() && len(b) > 0 {
			t.Logf("--- console.js's stderr:\n%s", lastBytes(b, 4000))
		}
		d.keepScreenshots(t)
	})
	return d
}

// do runs one step and returns its data; a failed step, or any JavaScript error or outside
// request seen meanwhile, fails the test naming the step's screenshot.
func (d *consoleDriver) do(t *testing.T, step string, timeout time.Duration, args map[string]any) json.RawMessage {
	t.Helper()
	msg := map[string]any{"step": step, "timeout": timeout.Milliseconds()}
	maps.Copy(msg, args)
	line, _ := json.Marshal(msg)
	if _, err := d.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("step %s: writing to console.js: %v", step, err)
	}
	var raw string
	select {
	case r, ok := <-d.answers:
		if !ok {
			t.Fatalf("step %s: console.js exited (%s)", step, d.shots())
		}
		raw = r
	case <-time.After(timeout + 30*time.Second):
		t.Fatalf("step %s: no answer from console.js within %v (%s)", step, timeout+30*time.Second, d.shots())
	}
	var ans stepAnswer
	if err := json.Unmarshal([]byte(raw), &ans); err != nil {
		t.Fatalf("step %s: console.js answered %q: %v", step, raw, err)
	}
	if ans.Screenshot != "" {
		d.taken = append(d.taken, ans.Screenshot)
	}
	if len(ans.Problems) > 0 {
		t.Fatalf("step %s: the page had problems: %s (screenshot %s)", step, strings.Join(ans.Problems, "; "), ans.Screenshot)
	}
	if !ans.OK {
		t.Fatalf("step %s %s: %s (screenshot %s%s)", step, line, ans.Error, ans.Screenshot, ans.ScreenshotError)
	}
	return ans.Data
}

func (d *consoleDriver) decode(t *testing.T, data json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("console.js answered %s: %v", data, err)
	}
}

// waitPicture reads each new picture the page draws until cond holds of one, or fails at the
// deadline with cond's last complaint.
func (d *consoleDriver) waitPicture(t *testing.T, within time.Duration, what string, cond func(consolePicture) error) consolePicture {
	t.Helper()
	deadline := time.Now().Add(within)
	var p consolePicture
	var last error
	for {
		left := time.Until(deadline)
		if left <= 0 {
			t.Fatalf("%s: not within %v: %v (screenshot %s)", what, within, last, d.lastShot())
		}
		d.decode(t, d.do(t, "picture", max(left, 2*time.Second), map[string]any{"after": p.Seq}), &p)
		if last = cond(p); last == nil {
			return p
		}
	}
}

func (d *consoleDriver) lastShot() string {
	if len(d.taken) == 0 {
		return "none taken"
	}
	return d.taken[len(d.taken)-1]
}

// shots names the latest screenshot and where all of them are.
func (d *consoleDriver) shots() string {
	return fmt.Sprintf("screenshot %s; every step's in %s", d.lastShot(), d.shotDir)
}

// keepScreenshots copies the screenshots where the test's temporary directory will not take
// them away: after a failure, or always with FA_CONSOLE_SHOTS=DIR.
func (d *consoleDriver) keepScreenshots(t *testing.T) {
	keep := os.Getenv("FA_CONSOLE_SHOTS")
	if keep == "" && !t.Failed() {
		return
	}
	if keep == "" {
		keep = filepath.Join(os.TempDir(), "flightalliance-failed", strings.ReplaceAll(t.Name(), "/", "_"), "screenshots")
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		t.Logf("keeping the screenshots: %v", err)
		return
	}
	for _, s := range d.taken {
		if b, err := os.ReadFile(s); err == nil {
			_ = os.WriteFile(filepath.Join(keep, filepath.Base(s)), b, 0o644)
		}
	}
	t.Logf("the screenshots of every step are kept in %s", keep)
}
