package membership

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"
)

// removalLine is the last log line of any machine that says it removed name's member.
func (w *Watch) removalLine(name string) string {
	last, _ := w.lastRemoval(name)
	if last == "" {
		return "no machine logged removing it"
	}
	return fmt.Sprintf("log line: %s", last)
}

// lastRemoval is the latest log line (by its time) of any machine that says it removed name's
// member, prefixed with that machine's name ("" if none), and when that remover's last probe of
// it began (zero if the line does not say).
func (w *Watch) lastRemoval(name string) (string, time.Time) {
	var last string
	var lastAt time.Time
	if w.SyncLogs != nil {
		w.SyncLogs()
	}
	for _, wm := range w.machines {
		f, err := os.Open(wm.log)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if !strings.Contains(line, "removes unreachable member") || !strings.Contains(line, "dead="+name+" ") {
				continue
			}
			if at := logTime(line, "time"); last == "" || !at.Before(lastAt) {
				last, lastAt = wm.name+": "+line, at
			}
		}
		f.Close()
	}
	return last, logTime(last, "last_probe_at")
}

// logTime is the time in a slog text line's field key (zero if the line has none).
func logTime(line, key string) time.Time {
	_, v, ok := strings.Cut(" "+line, " "+key+"=")
	if !ok {
		return time.Time{}
	}
	v, _, _ = strings.Cut(v, " ")
	at, _ := time.Parse(time.RFC3339Nano, v)
	return at
}
