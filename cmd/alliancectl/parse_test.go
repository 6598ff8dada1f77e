package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseAllowsFlagsAroundPositionals(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	k := fs.Int("alliances", 1, "")
	pos, err := parse(fs, []string{"--alliances", "2", "3", "--alliances=4"}, 1, "N")
	if err != nil || !slices.Equal(pos, []string{"3"}) || *k != 4 {
		t.Fatalf("parse: pos %v alliances %d err %v", pos, *k, err)
	}
	_, err = parse(fs, []string{"3", "4"}, 1, "N")
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"3 4"`) {
		t.Fatalf("two positionals for one: %v, want a usage error naming them", err)
	}
	if _, err := parse(fs, []string{"--nope"}, 0, ""); !errors.As(err, &ue) {
		t.Fatalf("unknown flag: %v, want a usage error", err)
	}
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string // in stdout+stderr
	}{
		{nil, exitUsage, "usage: alliancectl"},
		{[]string{"help"}, exitOK, "up N"},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"up", "--help"}, exitOK, "--sellers-per-machine"},
		{[]string{"up", "0", "--dir", dir}, exitUsage, "N: 0 machines"},
		{[]string{"up", "three", "--dir", dir}, exitUsage, `N: "three"`},
		{[]string{"up", "3", "--dir", dir, "--bin", filepath.Join(dir, "nobin")}, exitFailure, "make build"},
		{[]string{"status", "--dir", dir}, exitFailure, "no state.json"},
		{[]string{"kill", "--dir", dir}, exitUsage, "want NAME"},
		{[]string{"down", "--dir", dir}, exitOK, "nothing to stop"},
		{[]string{"load", "--rate", "0", "--dir", dir}, exitUsage, "--rate: 0"},
		{[]string{"add", "m9", "--dir", dir}, exitUsage, "--seller: missing"},
		{[]string{"add", "m9", "--seller", "z", "--dir", dir}, exitUsage, `"z" is not a seller code`},
		{[]string{"partition", "m1", "--dir", dir}, exitFailure, "no state.json"},
		{[]string{"heal", "--dir", dir}, exitFailure, "no state.json"},
		{[]string{"heal", "m1", "--dir", dir}, exitUsage, "unexpected argument"},
		{[]string{"up", "3", "--zones", "4", "--dir", dir}, exitUsage, "--zones: 4, want 0 to N (3)"},
		{[]string{"up", "3", "--replicas", "6", "--dir", dir}, exitUsage, "--replicas: 6, want 1 to 5"},
		{[]string{"replicas", "--dir", dir}, exitUsage, "want K"},
		{[]string{"replicas", "0", "--dir", dir}, exitUsage, `K: "0", want 1 to 5`},
		{[]string{"replicas", "three", "--dir", dir}, exitUsage, `K: "three"`},
		{[]string{"replicas", "3", "--dir", dir}, exitFailure, "no state.json"},
	} {
		var out bytes.Buffer
		code := run(context.Background(), c.args, &out, &out)
		if code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("alliancectl %v: exit %d, output %q; want exit %d and %q", c.args, code, out.String(), c.code, c.want)
		}
	}
}

func TestRoutesReadsTheCSVContract(t *testing.T) {
	dir := t.TempDir()
	csv := "flight,seller,src,dst,departure,arrival,price,seats\n" +
		"LY001,LY,TLV,JFK,2026-12-01T08:00:00Z,2026-12-01T19:10:00Z,512.00,180\n" +
		"LY002,LY,JFK,TLV,2026-12-02T08:00:00Z,2026-12-02T19:10:00Z,512.00,180\n" +
		"LY003,LY,TLV,JFK,2026-12-01T18:00:00Z,2026-12-02T05:10:00Z,412.00,180\n"
	if err := os.WriteFile(filepath.Join(dir, "LY.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	d := DataSpec{Dir: dir}
	qs, err := routes(d, []string{"LY"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{{"TLV", "JFK", "2026-12-01"}, {"JFK", "TLV", "2026-12-02"}}
	if !slices.Equal(qs, want) {
		t.Fatalf("routes = %v, want %v (distinct, in file order)", qs, want)
	}
	if got := showcase(qs, "2026-12-02"); got != want[1] {
		t.Fatalf("showcase for 2026-12-02 = %v", got)
	}
	if _, err := routes(d, []string{"UA"}); err == nil {
		t.Fatal("routes of a seller without a file: no error")
	}
}

func TestUpRefusesATakenSearchPort(t *testing.T) {
	bin := t.TempDir()
	for _, b := range []string{"airline", "search", "flights"} {
		if err := os.WriteFile(filepath.Join(bin, b), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var out bytes.Buffer
	dir := filepath.Join(t.TempDir(), "run")
	code := run(context.Background(), []string{"up", "3", "--dir", dir, "--bin", bin, "--search", l.Addr().String()}, &out, &out)
	if code != exitFailure || !strings.Contains(out.String(), "--search: "+l.Addr().String()+" is taken") {
		t.Fatalf("up with a taken search port: exit %d, %q; want exit 2 naming the port", code, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, stateFile)); err == nil {
		t.Fatal("up wrote a state.json although it started nothing")
	}
}

func TestWithReplicasRewritesTheCommandLine(t *testing.T) {
	if got := withReplicas([]string{"airline", "--replicas", "2", "--name", "m1"}, 3); !slices.Equal(got, []string{"airline", "--replicas", "3", "--name", "m1"}) {
		t.Errorf("replaced: %v", got)
	}
	if got := withReplicas([]string{"airline", "--name", "m1"}, 3); !slices.Equal(got, []string{"airline", "--name", "m1"}) {
		t.Errorf("without --replicas it adopts the alliance's: %v", got)
	}
}
