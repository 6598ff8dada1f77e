package logformat

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// TestZapEntriesBecomeRecordsOfTheServersFormat: what etcd logs through zap comes out as the
// server's own records — one JSON object a line with slog's keys, its fields as attributes —
// at zap's minimum level and the handler's.
func TestZapEntriesBecomeRecordsOfTheServersFormat(t *testing.T) {
	var out bytes.Buffer
	server := New(&out, JSON, slog.LevelInfo)
	etcd := Zap(server.With("component", "etcd").Handler(), zapcore.WarnLevel).Named("raft").With(zap.String("member", "m1"))
	server.Info("server starts")
	etcd.Info("an etcd info line, below etcd's warn")
	etcd.Warn("lost the leader", zap.Error(errors.New("timeout")), zap.Duration("took", 1500*time.Millisecond),
		zap.Strings("peers", []string{"m2", "m3"}), zap.Int("term", 7), zap.Namespace("ignored"), zap.Bool("flat", true))
	etcd.Error("disk full")

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3 (server info, etcd warn and error):\n%s", len(lines), out.String())
	}
	var recs []map[string]any
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("not a JSON object: %s (%v)", l, err)
		}
		recs = append(recs, rec)
	}
	warn := recs[1]
	for key, want := range map[string]any{"level": "WARN", "msg": "lost the leader", "component": "etcd", "logger": "raft",
		"member": "m1", "error": "timeout", "term": 7.0, "flat": true, "took": 1.5e9} {
		if warn[key] != want {
			t.Errorf("%s: %v, want %v in %v", key, warn[key], want, warn)
		}
	}
	if peers, _ := warn["peers"].([]any); len(peers) != 2 || peers[0] != "m2" {
		t.Errorf("peers: %v", warn["peers"])
	}
	if c, _ := warn["caller"].(string); !strings.Contains(c, "zap_test.go") {
		t.Errorf("caller %q, want this file's line", warn["caller"])
	}
	if _, ok := warn["time"]; !ok {
		t.Errorf("no time: %v", warn)
	}
	if recs[2]["level"] != "ERROR" || recs[0]["component"] != nil {
		t.Errorf("records %v", recs)
	}
}

// TestTheHandlersLevelHoldsForZapToo: a server at --log-level error hides etcd's warnings, and
// text is slog's key=value.
func TestTheHandlersLevelHoldsForZapToo(t *testing.T) {
	var out bytes.Buffer
	etcd := Zap(New(&out, Text, slog.LevelError).Handler(), zapcore.WarnLevel)
	etcd.Warn("hidden")
	etcd.Error("shown", zap.String("k", "v"))
	if got := out.String(); strings.Contains(got, "hidden") || !strings.Contains(got, `level=ERROR msg=shown`) || !strings.Contains(got, "k=v") {
		t.Errorf("text log %q", got)
	}
}

func TestParseNamesTheChoices(t *testing.T) {
	for _, ok := range []string{"json", "text"} {
		if f, err := Parse(ok); err != nil || string(f) != ok {
			t.Errorf("Parse(%q) = %q, %v", ok, f, err)
		}
	}
	if _, err := Parse("xml"); err == nil || !strings.Contains(err.Error(), "want json or text") {
		t.Errorf("Parse(xml): %v", err)
	}
}
