package main

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// A gate is the front door of one of a machine's proxies: it listens on the address the other
// processes were told (the advertised one) and forwards each connection to toxiproxy's proxy
// behind it. It exists because toxiproxy's toxics act on every connection of a proxy alike,
// while a partition must also silence the partitioned machine's own connections to the
// others' proxies: the gate sees which process opened each connection (connOwner) and drops
// the bytes of those a cutter says are cut.
type gate struct {
	name   string // "m2-peer"
	ln     net.Listener
	target string // toxiproxy's listening address behind the gate
	cut    *cutter
	log    *slog.Logger
}

// serve accepts connections until the listener closes.
func (g *gate) serve() {
	for {
		c, err := g.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				g.log.Warn("gate stopped accepting", "gate", g.name, "err", err)
			}
			return
		}
		go g.handle(c)
	}
}

func (g *gate) handle(client net.Conn) {
	gc := &gateConn{client: client, via: g.name}
	g.cut.track(gc)
	defer g.cut.untrack(gc)
	if gc.cut.Load() {
		// Cut from the start: accept and swallow, as a silently dropping network would.
		_, _ = io.Copy(io.Discard, client)
		gc.close()
		return
	}
	server, err := net.DialTimeout("tcp", g.target, 5*time.Second)
	if err != nil {
		g.log.Warn("gate cannot reach its proxy", "gate", g.name, "proxy", g.target, "err", err)
		client.Close()
		return
	}
	gc.setServer(server)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); gc.pipe(server, client) }()
	go func() { defer wg.Done(); gc.pipe(client, server) }()
	wg.Wait()
	gc.close()
}

// gateConn is one connection through a gate.
type gateConn struct {
	via    string
	client net.Conn
	cut    atomic.Bool // bytes in either direction are dropped, ends are not closed

	mu     sync.Mutex
	server net.Conn // nil until dialled, or never when cut from the start
}

func (gc *gateConn) setServer(s net.Conn) {
	gc.mu.Lock()
	gc.server = s
	gc.mu.Unlock()
}

// pipe copies src to dst until src ends. While the connection is cut it reads and drops, and
// an end of src is not passed on: the other side must not learn anything.
func (gc *gateConn) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !gc.cut.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				gc.close()
				return
			}
		}
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) && !gc.cut.Load() {
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
				return
			}
		}
		if !gc.cut.Load() {
			gc.close()
		}
		return
	}
}

// close closes both ends.
func (gc *gateConn) close() {
	gc.client.Close()
	gc.mu.Lock()
	defer gc.mu.Unlock()
	if gc.server != nil {
		gc.server.Close()
	}
}

// cutter holds which machines are partitioned and every open connection through any gate, so
// that a partition also silences the connections a partitioned machine opens itself.
type cutter struct {
	pids func(names map[string]bool) []int // live pids of the named machines
	log  *slog.Logger

	mu    sync.Mutex
	names map[string]bool // partitioned machines
	conns map[*gateConn]bool
}

func newCutter(pids func(map[string]bool) []int, log *slog.Logger) *cutter {
	return &cutter{pids: pids, log: log, names: map[string]bool{}, conns: map[*gateConn]bool{}}
}

// track registers a new connection and cuts it at once if a partitioned machine opened it.
func (c *cutter) track(gc *gateConn) {
	c.mu.Lock()
	c.conns[gc] = true
	names := len(c.names)
	c.mu.Unlock()
	if names > 0 {
		c.check([]*gateConn{gc})
	}
}

func (c *cutter) untrack(gc *gateConn) {
	c.mu.Lock()
	delete(c.conns, gc)
	c.mu.Unlock()
}

// check cuts those of conns whose client end a partitioned machine owns.
func (c *cutter) check(conns []*gateConn) {
	c.mu.Lock()
	names := make(map[string]bool, len(c.names))
	for n := range c.names {
		names[n] = true
	}
	c.mu.Unlock()
	pids := c.pids(names)
	for _, gc := range conns {
		if gc.cut.Load() {
			continue
		}
		owner, err := connOwner(gc.client.LocalAddr(), gc.client.RemoteAddr(), pids)
		if err != nil {
			c.log.Warn("cannot tell who opened a connection; it is not cut", "gate", gc.via, "err", err)
			continue
		}
		if owner != 0 {
			gc.cut.Store(true)
			c.log.Debug("connection from a partitioned machine cut", "gate", gc.via, "pid", owner,
				"from", gc.client.RemoteAddr().String())
		}
	}
}

// partition adds name to the partitioned machines and cuts its open connections.
func (c *cutter) partition(name string) {
	c.mu.Lock()
	c.names[name] = true
	conns := make([]*gateConn, 0, len(c.conns))
	for gc := range c.conns {
		conns = append(conns, gc)
	}
	c.mu.Unlock()
	c.check(conns)
}

// partitioned reports whether name is partitioned.
func (c *cutter) partitioned(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.names[name]
}

// heal forgets every partition and closes the cut connections (bytes were lost on them, so
// they could not go on; their owners reconnect). It returns how many it closed.
func (c *cutter) heal() int {
	c.mu.Lock()
	clear(c.names)
	var cut []*gateConn
	for gc := range c.conns {
		if gc.cut.Load() {
			cut = append(cut, gc)
		}
	}
	c.mu.Unlock()
	for _, gc := range cut {
		gc.close()
	}
	return len(cut)
}
