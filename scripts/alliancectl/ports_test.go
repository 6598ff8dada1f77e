package main

import (
	"net"
	"strings"
	"testing"
)

func TestFreeAddrsDistinctListenableAndNotTaken(t *testing.T) {
	first, err := freeAddrs(5, nil)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]bool{}
	for _, a := range first {
		taken[a] = true
	}
	if len(taken) != 5 {
		t.Fatalf("freeAddrs(5) = %v, not 5 distinct addresses", first)
	}
	got, err := freeAddrs(30, taken)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, a := range got {
		if taken[a] || seen[a] {
			t.Fatalf("freeAddrs handed out %s twice (taken %v, got %v)", a, first, got)
		}
		seen[a] = true
		if !strings.HasPrefix(a, "127.0.0.1:") {
			t.Fatalf("%s is not a loopback address", a)
		}
		l, err := net.Listen("tcp", a)
		if err != nil {
			t.Fatalf("%s from freeAddrs cannot be listened on: %v", a, err)
		}
		l.Close()
	}
}

func TestCheckFreeNamesATakenAddress(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := l.Addr().String()
	if err := checkFree(addr); err == nil || !strings.Contains(err.Error(), addr+" is taken") {
		t.Fatalf("checkFree(%s) while listening: %v, want an error naming it", addr, err)
	}
	l.Close()
	if err := checkFree(addr); err != nil {
		t.Fatalf("checkFree(%s) after close: %v", addr, err)
	}
}
