package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"flightalliance/internal/faultnet"
)

// echoServer echoes every line it reads, until the test ends.
func echoServer(t *testing.T) string {
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
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	return ln.Addr().String()
}

// daemonUnderTest runs a proxy daemon's control API on a loopback port and returns a State
// that names it, as state.json would. pids stands in for the partitioned machines' pids.
func daemonUnderTest(t *testing.T, pids func(map[string]bool) []int) (*proxyDaemon, *State) {
	t.Helper()
	d := newProxyDaemon(t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	d.cut.pids = pids
	srv := httptest.NewServer(d.routes())
	t.Cleanup(func() { srv.Close(); d.close() })
	s := &State{Procs: []Proc{{Name: proxydName, Kind: kindProxyd, Ports: Ports{Listen: strings.TrimPrefix(srv.URL, "http://")}}}}
	return d, s
}

// addMachine asks the daemon, over its API, for an HTTP proxy in front of upstream.
func addMachine(t *testing.T, s *State, name, upstream string) string {
	t.Helper()
	a, err := freeAddrs(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := proxySpec{Advertise: Ports{Listen: a[0]}, Upstream: Ports{Listen: upstream}}
	if err := proxydCall(context.Background(), s, http.MethodPut, "/ctl/machines/"+name, spec, nil); err != nil {
		t.Fatal(err)
	}
	return a[0]
}

// roundTrip writes a line on c and reports whether the same line comes back within d.
func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader, d time.Duration) (bool, error) {
	t.Helper()
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return false, err
	}
	_ = c.SetReadDeadline(time.Now().Add(d))
	line, err := r.ReadString('\n')
	if err != nil {
		return false, err
	}
	return line == "ping\n", nil
}

func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestPartitionBlackholesInboundAndHealClosesCutConnections(t *testing.T) {
	_, s := daemonUnderTest(t, func(map[string]bool) []int { return nil })
	m1 := addMachine(t, s, "m1", echoServer(t))
	m2 := addMachine(t, s, "m2", echoServer(t))

	before, r := dial(t, m1)
	if ok, err := roundTrip(t, before, r, 5*time.Second); !ok || err != nil {
		t.Fatalf("through m1's proxy before any partition: %v %v, want the echo", ok, err)
	}
	ctx := context.Background()
	var ms []machineNet
	if err := proxydCall(ctx, s, http.MethodPost, "/ctl/partition/m1", nil, &ms); err != nil {
		t.Fatal(err)
	}
	if got := partitionedNames(ms); !slices.Equal(got, []string{"m1"}) {
		t.Fatalf("partitioned %v, want [m1]", got)
	}
	for _, p := range ms[0].Proxies {
		if !slices.Equal(p.Toxics, faultnet.PartitionToxics) {
			t.Fatalf("%s has toxics %v, want %v", p.Name, p.Toxics, faultnet.PartitionToxics)
		}
	}
	// An open connection and a new one: bytes vanish, nothing is closed (a silent blackhole).
	during, r2 := dial(t, m1)
	for _, c := range []struct {
		conn net.Conn
		r    *bufio.Reader
	}{{before, r}, {during, r2}} {
		if ok, err := roundTrip(t, c.conn, c.r, 300*time.Millisecond); ok || !isTimeout(err) {
			t.Fatalf("through partitioned m1: echo %v, err %v; want a read timeout", ok, err)
		}
	}
	// The other machine is not affected.
	other, r3 := dial(t, m2)
	if ok, err := roundTrip(t, other, r3, 5*time.Second); !ok || err != nil {
		t.Fatalf("through m2 while m1 is partitioned: %v %v, want the echo", ok, err)
	}

	var healed struct{ Healed []string }
	if err := proxydCall(ctx, s, http.MethodPost, "/ctl/heal", nil, &healed); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(healed.Healed, []string{"m1"}) {
		t.Fatalf("heal says it healed %v, want [m1]", healed.Healed)
	}
	_ = during.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r2.ReadString('\n'); err == nil || isTimeout(err) {
		t.Fatalf("a connection cut during the partition: read %v after heal, want it closed", err)
	}
	after, r4 := dial(t, m1)
	if ok, err := roundTrip(t, after, r4, 5*time.Second); !ok || err != nil {
		t.Fatalf("through m1 after heal: %v %v, want the echo", ok, err)
	}
	if ms, err := proxiesStatus(ctx, s); err != nil || len(partitionedNames(ms)) != 0 || len(ms[0].Proxies[0].Toxics) != 0 {
		t.Fatalf("after heal: %+v %v, want no partition and no toxic", ms, err)
	}
}

// A partitioned machine's own connections to the others' proxies are cut too: here the
// "partitioned machine" is this test process.
func TestPartitionSilencesThePartitionedMachinesOwnConnections(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("needs Linux /proc to tell who opened a connection")
	}
	me := os.Getpid()
	_, s := daemonUnderTest(t, func(names map[string]bool) []int {
		if names["self"] {
			return []int{me}
		}
		return nil
	})
	other := addMachine(t, s, "other", echoServer(t))
	addMachine(t, s, "self", echoServer(t))

	open, r := dial(t, other)
	if ok, err := roundTrip(t, open, r, 5*time.Second); !ok || err != nil {
		t.Fatalf("before the partition: %v %v, want the echo", ok, err)
	}
	ctx := context.Background()
	if err := proxydCall(ctx, s, http.MethodPost, "/ctl/partition/self", nil, nil); err != nil {
		t.Fatal(err)
	}
	fresh, r2 := dial(t, other)
	for _, c := range []struct {
		conn net.Conn
		r    *bufio.Reader
	}{{open, r}, {fresh, r2}} {
		if ok, err := roundTrip(t, c.conn, c.r, 300*time.Millisecond); ok || !isTimeout(err) {
			t.Fatalf("from the partitioned process to another's proxy: echo %v, err %v; want a read timeout", ok, err)
		}
	}
	if err := proxydCall(ctx, s, http.MethodPost, "/ctl/heal", nil, nil); err != nil {
		t.Fatal(err)
	}
	after, r3 := dial(t, other)
	if ok, err := roundTrip(t, after, r3, 5*time.Second); !ok || err != nil {
		t.Fatalf("after heal: %v %v, want the echo", ok, err)
	}
}

func TestPartitionNeedsAMachineWithProxies(t *testing.T) {
	_, s := daemonUnderTest(t, func(map[string]bool) []int { return nil })
	err := proxydCall(context.Background(), s, http.MethodPost, "/ctl/partition/nobody", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Fatalf("partitioning an unknown machine: %v, want an error naming it", err)
	}
	if err := proxydCall(context.Background(), &State{}, http.MethodPost, "/ctl/heal", nil, nil); !errors.Is(err, errNoProxyd) {
		t.Fatalf("heal without a proxy daemon: %v, want errNoProxyd", err)
	}
}

func TestConnOwnerFindsTheProcessThatDialled(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("needs Linux /proc")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	srv, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	me := os.Getpid()
	if got, err := connOwner(srv.LocalAddr(), srv.RemoteAddr(), []int{1, me}); err != nil || got != me {
		t.Fatalf("owner of a connection this process dialled: %d %v, want %d", got, err, me)
	}
	if got, err := connOwner(srv.LocalAddr(), srv.RemoteAddr(), []int{1}); err != nil || got != 0 {
		t.Fatalf("owner among other pids: %d %v, want 0", got, err)
	}
}

func TestProcAddrMatchesTheKernelsNotation(t *testing.T) {
	got := procAddr(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
	if want := "0100007F:1F90"; got != want && got != "7F000001:1F90" {
		t.Fatalf("procAddr(127.0.0.1:8080) = %s, want %s (little-endian) or 7F000001:1F90", got, want)
	}
}

func TestProxydAnswersHealthz(t *testing.T) {
	_, s := daemonUnderTest(t, func(map[string]bool) []int { return nil })
	// restart waits for /healthz of whatever it restarted, the proxy daemon included.
	if _, err := waitHealthy(context.Background(), newHTTPClient(2*time.Second), *s.proxyd(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkEchoRoundTrip measures what the proxies add to one small request and answer on an
// open connection: direct, and through a gate and its toxiproxy proxy.
func BenchmarkEchoRoundTrip(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	d := newProxyDaemon(b.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer d.close()
	a, err := freeAddrs(1, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.add("m1", proxySpec{Advertise: Ports{Listen: a[0]}, Upstream: Ports{Listen: ln.Addr().String()}}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, addr string }{{"direct", ln.Addr().String()}, {"proxied", a[0]}} {
		b.Run(c.name, func(b *testing.B) {
			conn, err := net.Dial("tcp", c.addr)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			r := bufio.NewReader(conn)
			msg := []byte("ping\n")
			for b.Loop() {
				if _, err := conn.Write(msg); err != nil {
					b.Fatal(err)
				}
				if _, err := r.ReadString('\n'); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
