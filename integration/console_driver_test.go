package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// consoleDriver drives the search server's web console in the test's Chromium over the DevTools
// protocol (chromedp): one step at a time, each bounded by its timeout, each followed by a
// screenshot, with the problems the page had meanwhile (console errors, uncaught exceptions,
// requests to anywhere but the search server). Every wait is for a condition on the page;
// nothing sleeps for a fixed time.
type consoleDriver struct {
	tab     context.Context // the page's chromedp context
	base    string
	shotDir string
	taken   []string

	mu       sync.Mutex
	problems []string
}

// startConsoleDriver opens a tab of 1280×800 in the Chromium whose DevTools WebSocket is ws, and
// watches it for problems.
func startConsoleDriver(ctx context.Context, t *testing.T, ws, base string) *consoleDriver {
	t.Helper()
	shotDir := filepath.Join(t.TempDir(), "screenshots")
	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := remote.NewAllocator(ctx, ws)
	tab, cancelTab := chromedp.NewContext(alloc)
	d := &consoleDriver{tab: tab, base: base, shotDir: shotDir}
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		d.keepScreenshots(t)
	})
	// The first action opens the tab, under no deadline of its own: a deadline on it would close
	// the tab when it passed.
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("opening a tab in Chromium at %s: %v", ws, err)
	}
	if err := chromedp.Listen(tab, d.watch); err != nil {
		t.Fatalf("watching the tab: %v", err)
	}
	return d
}

// watch notes what the page must never do. It runs in chromedp's event loop, so it only appends.
func (d *consoleDriver) watch(ev any) {
	var problem string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			var args []string
			for _, a := range ev.Args {
				args = append(args, consoleArg(a))
			}
			problem = "console error: " + strings.Join(args, " ")
		}
	case *runtime.EventExceptionThrown:
		problem = "page error: " + exceptionText(ev.ExceptionDetails)
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; !strings.HasPrefix(u, d.base+"/") && !strings.HasPrefix(u, "data:") {
			problem = "request outside the search server: " + u
		}
	}
	if problem != "" {
		d.mu.Lock()
		d.problems = append(d.problems, problem)
		d.mu.Unlock()
	}
}

func consoleArg(a *runtime.RemoteObject) string {
	if len(a.Value) > 0 {
		var s string
		if json.Unmarshal(a.Value, &s) == nil {
			return s
		}
		return string(a.Value)
	}
	return a.Description
}

func exceptionText(e *runtime.ExceptionDetails) string {
	if e.Exception != nil && e.Exception.Description != "" {
		return e.Exception.Description
	}
	return e.Text
}

// takeProblems returns the problems seen since it was last called.
func (d *consoleDriver) takeProblems() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.problems
	d.problems = nil
	return p
}

// do runs one step and returns its data as JSON; a failed step, or any problem of the page seen
// meanwhile, fails the test naming the step's screenshot.
func (d *consoleDriver) do(t *testing.T, step string, timeout time.Duration, args map[string]any) json.RawMessage {
	t.Helper()
	run, ok := consoleSteps[step]
	if !ok {
		t.Fatalf("no console step %q", step)
	}
	ctx, cancel := context.WithTimeout(d.tab, timeout)
	data, err := run(ctx, d, stepArgs(args))
	cancel()
	var shot, shotErr string
	if step != "close" {
		shot, shotErr = d.screenshot(step)
	}
	if problems := d.takeProblems(); len(problems) > 0 {
		t.Fatalf("step %s: the page had problems: %s (screenshot %s)", step, strings.Join(problems, "; "), shot)
	}
	if err != nil {
		line, _ := json.Marshal(args)
		t.Fatalf("step %s %s: %v (screenshot %s%s)", step, line, err, shot, shotErr)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatalf("step %s: %v", step, err)
	}
	return raw
}

// screenshot saves the whole page as the next numbered PNG, or says why it could not.
func (d *consoleDriver) screenshot(step string) (path, problem string) {
	ctx, cancel := context.WithTimeout(d.tab, 20*time.Second)
	defer cancel()
	// Two animation frames first, so that the picture is of what the DOM holds now and not the
	// last frame the compositor drew.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](
		`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	var png []byte
	if err == nil {
		png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	}
	if err == nil {
		path = filepath.Join(d.shotDir, fmt.Sprintf("%02d-%s.png", len(d.taken)+1, step))
		err = os.WriteFile(path, png, 0o644)
	}
	if err != nil {
		return "", "; no screenshot: " + err.Error()
	}
	d.taken = append(d.taken, path)
	return path, ""
}

func (d *consoleDriver) decode(t *testing.T, data json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("the console step answered %s: %v", data, err)
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
