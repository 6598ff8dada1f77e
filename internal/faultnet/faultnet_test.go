package faultnet

import (
	"bufio"
	"context"
	"io"
	"net"
	"slices"
	"testing"
	"time"
)

// echo serves a TCP echo on a free port until the test ends.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// roundTrip sends a line through addr on a new connection and waits up to wait for it back.
func roundTrip(addr string, wait time.Duration) (time.Duration, error) {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(wait))
	start := time.Now()
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return 0, err
	}
	_, err = bufio.NewReader(c).ReadString('\n')
	return time.Since(start), err
}

// A proxy forwards; partitioned, it holds every byte (idempotently); healed, it forwards again;
// delayed, a round trip takes twice the one-way delay.
func TestPartitionHealDelay(t *testing.T) {
	ps := New()
	t.Cleanup(func() { _ = ps.Close() })
	p, err := ps.Start("m1-http", "127.0.0.1:0", echo(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := roundTrip(p.Listen, 5*time.Second); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	for range 2 {
		if err := Partition(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := roundTrip(p.Listen, 300*time.Millisecond); err == nil {
		t.Fatal("a partitioned proxy forwarded a byte")
	}
	Heal(context.Background(), p)
	if _, err := roundTrip(p.Listen, 5*time.Second); err != nil {
		t.Fatalf("healed: %v", err)
	}
	if err := Delay(p, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if rtt, err := roundTrip(p.Listen, 5*time.Second); err != nil || rtt < 100*time.Millisecond {
		t.Fatalf("delayed 50ms each way: round trip %v, %v; want 100ms or more", rtt, err)
	}
	if ps.Get("m1-http") != p || ps.Get("none") != nil || !slices.Contains(keys(ps), "m1-http") {
		t.Fatal("Get or All does not find the proxy by its name")
	}
}

func keys(ps *Proxies) (out []string) {
	for name := range ps.All() {
		out = append(out, name)
	}
	return out
}
