package membership

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLastRemovalReadsWhenTheProbeBegan: the watch finds the last removal of a machine among
// every machine's log lines and reads when the remover's last probe began, which decides
// whether a machine the test had just brought back was removed on evidence from before.
func TestLastRemovalReadsWhenTheProbeBegan(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		path := filepath.Join(dir, name+".log")
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	removal := func(dead, probedAt string) string {
		return `time=` + probedAt + ` level=WARN msg="coord reconciler removes unreachable member" member=m2 dead=` + dead +
			` id=7451724a098e65ad unreachable_for=5.22s last_probe_at=` + probedAt + ` err="Get \"https://127.0.0.1:31136/members\": context deadline exceeded"`
	}
	w := &Watch{t: t, machines: map[string]*watchedMachine{
		"m1": {name: "m1", log: write("m1", "noise", removal("m5", "2026-11-26T16:04:50.000000001Z"))},
		"m2": {name: "m2", log: write("m2", removal("m5", "2026-11-26T16:05:01.504030201Z"), removal("m50", "2026-11-26T16:05:09Z"), "noise")},
	}}
	line, at := w.lastRemoval("m5")
	want := time.Date(2026, 11, 26, 16, 5, 1, 504030201, time.UTC)
	if !at.Equal(want) || !strings.HasPrefix(line, "m") || !strings.Contains(line, "dead=m5 ") {
		t.Errorf("lastRemoval(m5) = %q, %v; want a line removing m5 probed at %v", line, at, want)
	}
	if line, at := w.lastRemoval("m3"); line != "" || !at.IsZero() {
		t.Errorf("lastRemoval(m3) = %q, %v; want none", line, at)
	}
	w.machines["m2"].log = write("m2", strings.Replace(removal("m5", "x"), " last_probe_at=x", "", 1))
	w.machines["m1"].log = write("m1", "noise")
	if line, at := w.lastRemoval("m5"); line == "" || !at.IsZero() {
		t.Errorf("lastRemoval(m5) of a line without last_probe_at = %q, %v; want the line and no time", line, at)
	}
}
