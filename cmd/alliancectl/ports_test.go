package main

import (
	"net"
	"strings"
	"testing"
)

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
