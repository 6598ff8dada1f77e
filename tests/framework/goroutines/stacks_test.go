package goroutines

import (
	"fmt"
	"strings"
	"testing"
)

// profileText writes groups of goroutines as /debug/pprof/goroutine?debug=1 does: each group's
// count, then its frames ("function+offset file:line", innermost first) one per "#" line.
func profileText(groups map[int][]string) string {
	var out strings.Builder
	out.WriteString("goroutine profile: total 0\n")
	for count, frames := range groups {
		fmt.Fprintf(&out, "%d @ 0x1 0x2\n", count)
		for _, f := range frames {
			function, file, _ := strings.Cut(f, " ")
			fmt.Fprintf(&out, "#\t0x47a0c4\t%s\t%s\n", function, file)
		}
		out.WriteString("\n")
	}
	return out.String()
}

// The stacks of TestNothingLeaksRoundAfterRound's processes (Go 1.26), cut to the frames that
// tell them apart; each count is the group's key in profileText, so each must differ.
var (
	stackIdleClientReader = []string{
		"internal/poll.runtime_pollWait+0x84 netpoll.go:351",
		"net/http.(*persistConn).Read+0x46 transport.go:2174",
		"bufio.(*Reader).fill+0x102 bufio.go:113",
		"bufio.(*Reader).Peek+0x52 bufio.go:152",
		"net/http.(*persistConn).readLoop+0x171 transport.go:2330",
	}
	stackClientWriter = []string{
		"net/http.(*persistConn).writeLoop+0xe5 transport.go:2652",
	}
	stackUnreadBody = []string{
		"net/http.(*persistConn).readLoop+0xc04 transport.go:2450",
	}
	stackIdleServerConn = []string{
		"net/http.(*connReader).Read+0x153 server.go:812",
		"bufio.(*Reader).fill+0x102 bufio.go:113",
		"bufio.(*Reader).Peek+0x52 bufio.go:152",
		"net/http.(*conn).serve+0x7f2 server.go:2103",
	}
	stackHandlerReadingBody = []string{
		"bufio.(*Reader).Peek+0x52 bufio.go:152",
		"net/http.(*body).readTrailer+0x5e transfer.go:913",
		"net/http.(*body).readLocked+0x1b5 transfer.go:862",
		"flightalliance/search.(*Server).handleBook+0x3e handle.go:10",
		"net/http.serverHandler.ServeHTTP+0x8d server.go:3340",
		"net/http.(*conn).serve+0x68f server.go:2067",
	}
	stackH2ServerReader = []string{
		"net/http.(*http2Framer).ReadFrame+0x17 h2_bundle.go:2130",
		"net/http.(*http2serverConn).readFrames+0x86 h2_bundle.go:4837",
	}
	stackH2ServerConnLoop = []string{
		"net/http.(*http2serverConn).serve+0x864 h2_bundle.go:4968",
		"net/http.(*http2Server).serveConn+0xc25 h2_bundle.go:4547",
		"net/http.(*conn).serve+0x1507 server.go:1950",
	}
	stackH2Client = []string{
		"net/http.(*http2Framer).ReadFrame+0x17 h2_bundle.go:2130",
		"net/http.(*http2ClientConn).readLoop+0x51 h2_bundle.go:9419",
	}
	stackCallerWaiting = []string{
		"net/http.(*persistConn).roundTrip+0x9f1 transport.go:2831",
		"net/http.(*Transport).roundTrip+0x7d2 transport.go:698",
		"flightalliance/soap.(*IntraClient).call+0x1b client.go:80",
	}
	stackLeaked = []string{
		"flightalliance/alliance/gather.AskHolder.func1+0xe holder.go:23",
	}
)

// TestPooledTellsKeptConnectionsFromLeaks checks KindOf on each kind of stack, and Pooled's counts
// on a profile of them all: a writer or a loop is left out only beside a reader of its kind.
func TestPooledTellsKeptConnectionsFromLeaks(t *testing.T) {
	for _, c := range []struct {
		stack []string
		kind  string
	}{
		{stackIdleClientReader, H1ClientReader}, {stackClientWriter, H1ClientWriter}, {stackUnreadBody, ""},
		{stackIdleServerConn, H1ServerReader}, {stackHandlerReadingBody, ""}, {stackH2ServerReader, H2ServerReader},
		{stackH2ServerConnLoop, H2ServerLoop}, {stackH2Client, H2ClientReader}, {stackCallerWaiting, ""}, {stackLeaked, ""},
	} {
		if got := KindOf(strings.Join(c.stack, "\n")); got != c.kind {
			t.Errorf("%s: %q, want %q", c.stack[len(c.stack)-1], got, c.kind)
		}
	}

	// 7 idle client connections and 1 with its body unread: 8 writers, 7 left out. 2 HTTP/2
	// server connections, 3 loops (one whose reader is gone): 2 left out.
	stacks := Parse(strings.NewReader(profileText(map[int][]string{
		7: stackIdleClientReader, 8: stackClientWriter, 1: stackUnreadBody, 5: stackIdleServerConn, 4: stackHandlerReadingBody,
		2: stackH2ServerReader, 3: stackH2ServerConnLoop, 6: stackH2Client, 9: stackCallerWaiting, 11: stackLeaked,
	})))
	if got, want := stacks.Total(), 7+8+1+5+4+2+3+6+9+11; got != want {
		t.Fatalf("parsed %d goroutines, want %d:\n%v", got, want, stacks)
	}
	goroutines, conns := stacks.Pooled()
	if wantConns := 7 + 5 + 2 + 6; conns != wantConns {
		t.Errorf("%d kept connections, want %d", conns, wantConns)
	}
	if want := 7 + 7 + 5 + 2 + 2 + 6; goroutines != want {
		t.Errorf("%d goroutines of kept connections, want %d", goroutines, want)
	}
}
