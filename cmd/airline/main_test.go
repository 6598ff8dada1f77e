package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadCommandLinesNameTheFlag checks that every refused command line exits 1 with a message
// naming what is wrong, before anything starts.
func TestBadCommandLinesNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "LY.csv")
	if err := os.WriteFile(bad, []byte("flight,seller,src,dst,departure,arrival,price,seats\nLY1,LY,TLV,TLV,2026-12-01T08:00:00Z,2026-12-01T09:00:00Z,1.00,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--name", "m1", "--alliance", "star", "--peers", "m1=http://127.0.0.1:1", "--data-dir", filepath.Join(dir, "var")}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--alliance", "star"}, "name"},
		{[]string{"--name", "m1", "--alliance", "no spaces"}, "alliance"},
		{append(base, "--seller", "LY"), "--seller"},
		{append(base, "--seller", "LY=a.csv", "--seller", "LY=b.csv"), "LY given twice"},
		{append(base, "--seller", "LY="+filepath.Join(dir, "missing.csv")), "missing.csv"},
		{append(base, "--seller", "LY="+bad), "LY.csv:2"},
		{append(base, "--log-level", "loud"), "--log-level"},
		{append(base, "--cache-mib", "-1"), "--cache-mib"},
		{append(base, "--flights-cache", "-1"), "--flights-cache"},
		{append(base, "--heartbeat", "200ms", "--election-timeout", "900ms"), "--election-timeout: 900ms is less than 5 × --heartbeat 200ms"},
		{append(base, "--heartbeat", "0s"), "--heartbeat"},
		{append(base, "--search", "ftp://x"), "search"},
		{append(base, "extra"), "unexpected argument"},
	} {
		var stderr bytes.Buffer
		if code := run(tc.args, nil, io.Discard, &stderr, inProcess); code != 1 {
			t.Errorf("airline %v: exit %d, want 1 (stderr %q)", tc.args, code, stderr.String())
			continue
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("airline %v: stderr %q does not mention %q", tc.args, stderr.String(), tc.want)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"--help"}, nil, io.Discard, &stderr, inProcess); code != 0 || !strings.Contains(stderr.String(), "-peers") {
		t.Fatalf("--help: exit %d, output %q", code, stderr.String())
	}
}
