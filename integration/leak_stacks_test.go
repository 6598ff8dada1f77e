package integration

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// goroutineStacks counts a process's goroutines by stack: its frames, innermost first, one
// "function+offset file:line" per line.
type goroutineStacks map[string]int

// parseStacks reads a goroutine profile in its grouped text form (/debug/pprof/goroutine?debug=1:
// "N @ addresses", then one "#\taddress\tfunction+offset\tfile:line" line per frame; groups are
// apart by a blank line).
func parseStacks(r io.Reader) goroutineStacks {
	out := goroutineStacks{}
	count, frames := 0, []string(nil)
	flush := func() {
		if count > 0 {
			out[strings.Join(frames, "\n")] += count
		}
		count, frames = 0, nil
	}
	lines := bufio.NewScanner(r)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		line := lines.Text()
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "#"):
			if f := strings.Fields(line); len(f) >= 4 {
				frames = append(frames, f[2]+" "+f[3])
			}
		default:
			if n, _, ok := strings.Cut(line, " @ "); ok {
				count, _ = strconv.Atoi(n)
			}
		}
	}
	flush()
	return out
}

// total is the goroutines of every stack.
func (g goroutineStacks) total() (n int) {
	for _, c := range g {
		n += c
	}
	return n
}

// String writes the stacks sorted, each after its count.
func (g goroutineStacks) String() string {
	var out strings.Builder
	for _, stack := range slices.Sorted(maps.Keys(g)) {
		fmt.Fprintf(&out, "%d\n%s\n\n", g[stack], stack)
	}
	return out.String()
}

// The stacks of kept connections, as kindOf tells them apart ("" for any other).
const (
	h1ClientReader = "an HTTP/1.1 client connection's reader"
	h1ClientWriter = "an HTTP/1.1 client connection's writer"
	h1ServerReader = "an HTTP/1.1 server connection waiting for a request"
	h2ClientReader = "an HTTP/2 client connection's reader"
	h2ServerReader = "an HTTP/2 server connection's reader"
	h2ServerLoop   = "an HTTP/2 server connection's loop"
)

// kindOf classifies one stack (innermost frame first). A client's HTTP/1.1 connection
// (Transport) reads with its readLoop calling bufio.Reader.Peek itself: between calls, or while a
// call waits for its response (the caller's goroutine, waiting in RoundTrip, is then counted);
// its writeLoop waits for the next request. A server's waits for its next request in conn.serve,
// calling Peek or readRequest itself (a handler, even one reading a body, runs deeper, under
// serverHandler.ServeHTTP). An HTTP/2 connection reads frames in one goroutine (a client's
// readLoop, a server's readFrames); a server's also runs its loop (serveConn), whose handlers
// run in goroutines of their own.
func kindOf(stack string) string {
	frames := strings.Split(stack, "\n")
	calledFrom := func(inner, outer string) bool {
		for i := 1; i < len(frames); i++ {
			if strings.HasPrefix(frames[i], outer) && strings.HasPrefix(frames[i-1], inner) {
				return true
			}
		}
		return false
	}
	has := func(function string) bool {
		return slices.ContainsFunc(frames, func(f string) bool { return strings.HasPrefix(f, function) })
	}
	switch {
	case calledFrom("bufio.(*Reader).Peek+", "net/http.(*persistConn).readLoop+"):
		return h1ClientReader
	case strings.HasPrefix(frames[0], "net/http.(*persistConn).writeLoop+"):
		return h1ClientWriter
	case calledFrom("bufio.(*Reader).Peek+", "net/http.(*conn).serve+"),
		calledFrom("net/http.(*conn).readRequest+", "net/http.(*conn).serve+"):
		return h1ServerReader
	case has("net/http.(*http2ClientConn).readLoop+"):
		return h2ClientReader
	case has("net/http.(*http2serverConn).readFrames+"):
		return h2ServerReader
	case strings.HasPrefix(frames[0], "net/http.(*http2Server).serveConn+"),
		strings.HasPrefix(frames[0], "net/http.(*http2serverConn).serve+"):
		return h2ServerLoop
	}
	return ""
}

// pooled counts the goroutines and connections of the connections a process keeps open between
// requests: a client's waiting for its next response, a server's waiting for its next request,
// over HTTP/1.1 or HTTP/2. How many there are at rest depends on how many calls ran at once in
// the round before, up to the pools' limits: not a leak, as long as their number stays bounded
// (processLevel.within). A handler that never ends, a response body never closed, a caller
// that never returns and a file never closed are other stacks, and stay counted. A writer or a
// loop is left out only beside a reader of its kind: the writer of a connection busy for good
// (an etcd stream, an unread body) stays counted.
func (g goroutineStacks) pooled() (goroutines, conns int) {
	n := map[string]int{}
	for stack, count := range g {
		n[kindOf(stack)] += count
	}
	conns = n[h1ClientReader] + n[h1ServerReader] + n[h2ClientReader] + n[h2ServerReader]
	return conns + min(n[h1ClientWriter], n[h1ClientReader]) + min(n[h2ServerLoop], n[h2ServerReader]), conns
}
