package goroutines

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Stacks counts a process's goroutines by stack: its frames, innermost first, one
// "function+offset file:line" per line.
type Stacks map[string]int

// Parse reads a goroutine profile in its grouped text form (/debug/pprof/goroutine?debug=1:
// "N @ addresses", then one "#\taddress\tfunction+offset\tfile:line" line per frame; groups are
// apart by a blank line).
func Parse(r io.Reader) Stacks {
	out := Stacks{}
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

// Total is the goroutines of every stack.
func (g Stacks) Total() (n int) {
	for _, c := range g {
		n += c
	}
	return n
}

// String writes the stacks sorted, each after its count.
func (g Stacks) String() string {
	var out strings.Builder
	for _, stack := range slices.Sorted(maps.Keys(g)) {
		fmt.Fprintf(&out, "%d\n%s\n\n", g[stack], stack)
	}
	return out.String()
}

// The stacks of kept connections, as KindOf tells them apart ("" for any other).
const (
	H1ClientReader = "an HTTP/1.1 client connection's reader"
	H1ClientWriter = "an HTTP/1.1 client connection's writer"
	H1ServerReader = "an HTTP/1.1 server connection waiting for a request"
	H2ClientReader = "an HTTP/2 client connection's reader"
	H2ServerReader = "an HTTP/2 server connection's reader"
	H2ServerLoop   = "an HTTP/2 server connection's loop"
)

// KindOf classifies one stack (innermost frame first). A client's HTTP/1.1 connection
// (Transport) reads with its readLoop calling bufio.Reader.Peek itself: between calls, or while a
// call waits for its response (the caller's goroutine, waiting in RoundTrip, is then counted);
// its writeLoop waits for the next request. A server's waits for its next request in conn.serve,
// calling Peek or readRequest itself (a handler, even one reading a body, runs deeper, under
// serverHandler.ServeHTTP). An HTTP/2 connection reads frames in one goroutine (a client's
// readLoop, a server's readFrames); a server's also runs its loop (serveConn), whose handlers
// run in goroutines of their own.
func KindOf(stack string) string {
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
		return H1ClientReader
	case strings.HasPrefix(frames[0], "net/http.(*persistConn).writeLoop+"):
		return H1ClientWriter
	case calledFrom("bufio.(*Reader).Peek+", "net/http.(*conn).serve+"),
		calledFrom("net/http.(*conn).readRequest+", "net/http.(*conn).serve+"):
		return H1ServerReader
	case has("net/http.(*http2ClientConn).readLoop+"):
		return H2ClientReader
	case has("net/http.(*http2serverConn).readFrames+"):
		return H2ServerReader
	case strings.HasPrefix(frames[0], "net/http.(*http2Server).serveConn+"),
		strings.HasPrefix(frames[0], "net/http.(*http2serverConn).serve+"):
		return H2ServerLoop
	}
	return ""
}

// Pooled counts the goroutines and connections of the connections a process keeps open between
// requests: a client's waiting for its next response, a server's waiting for its next request,
// over HTTP/1.1 or HTTP/2. How many there are at rest depends on how many calls ran at once in
// the round before, up to the pools' limits: not a leak, as long as their number stays bounded
// (the leak test checks the bound). A handler that never ends, a response body never closed, a
// caller that never returns and a file never closed are other stacks, and stay counted. A writer
// or a loop is left out only beside a reader of its kind: the writer of a connection busy for
// good (an etcd stream, an unread body) stays counted.
func (g Stacks) Pooled() (goroutines, conns int) {
	n := map[string]int{}
	for stack, count := range g {
		n[KindOf(stack)] += count
	}
	conns = n[H1ClientReader] + n[H1ServerReader] + n[H2ClientReader] + n[H2ServerReader]
	return conns + min(n[H1ClientWriter], n[H1ClientReader]) + min(n[H2ServerLoop], n[H2ServerReader]), conns
}
