package search

import (
	"flightalliance/search/booking"

	"bufio"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pacedBody produces a body of n bytes in chunks: head, then filler repeated, a short pause
// every few chunks, as a client on a slower link sends it.
type pacedBody struct {
	head   string
	filler string
	n, off int64
	chunks int
}

func (b *pacedBody) Read(p []byte) (int, error) {
	if b.off >= b.n {
		return 0, io.EOF
	}
	if len(p) > 16<<10 {
		p = p[:16<<10]
	}
	if b.off > int64(len(b.head)) {
		if b.chunks++; b.chunks%64 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	p = p[:min(int64(len(p)), b.n-b.off)]
	for i := range p {
		at := b.off + int64(i)
		if at < int64(len(b.head)) {
			p[i] = b.head[at]
		} else {
			p[i] = b.filler[(at-int64(len(b.head)))%int64(len(b.filler))]
		}
	}
	b.off += int64(len(p))
	return len(p), nil
}

// upload is one raw HTTP/1.1 request whose body is streamed from a reader.
type upload struct {
	method, path string
	header       map[string]string
	body         *pacedBody
	whileSending bool // read the answer while sending (else only after the whole body is sent)
}

// send sends u on a new TCP connection to addr and returns the answer, which must arrive
// although the server refused the body. The answer's body is read in full.
func (u upload) send(t *testing.T, addr string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	var head strings.Builder
	head.WriteString(u.method + " " + u.path + " HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n")
	head.WriteString("Content-Length: " + strconv.FormatInt(u.body.n, 10) + "\r\n")
	for k, v := range u.header {
		head.WriteString(k + ": " + v + "\r\n")
	}
	head.WriteString("\r\n")
	type answer struct {
		resp *http.Response
		body []byte
		err  error
	}
	got := make(chan answer, 1)
	read := func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			got <- answer{err: err}
			return
		}
		b, err := io.ReadAll(resp.Body)
		got <- answer{resp, b, err}
	}
	if u.whileSending {
		go read()
	}
	if _, err := io.WriteString(conn, head.String()); err != nil {
		t.Fatal(err)
	}
	_, sendErr := io.Copy(conn, u.body) // fails once the server closes: expected for a huge body
	if !u.whileSending {
		if sendErr != nil {
			t.Fatalf("%s %s: the server stopped reading after %d of %d bytes: %v", u.method, u.path, u.body.off, u.body.n, sendErr)
		}
		go read()
	}
	select {
	case a := <-got:
		if a.err != nil {
			t.Fatalf("%s %s with a %d-byte body: no readable answer: %v", u.method, u.path, u.body.n, a.err)
		}
		return a.resp, a.body
	case <-time.After(60 * time.Second):
		t.Fatalf("%s %s with a %d-byte body: no answer within a minute", u.method, u.path, u.body.n)
	}
	return nil, nil
}

// TestRefusedBodiesAreReadable: a JSON body far over the limit (64 MiB, streamed in chunks) gets
// a 413 {"error": ...} that the client reads while it still sends, with Connection: close; one
// a few MiB over the limit gets it even when the client reads only after sending everything;
// too-deep nesting is a 400, also in a huge body; a registration without a token on a trusted
// server is a readable 401. The server keeps serving: a normal registration and a search work.
func TestRefusedBodiesAreReadable(t *testing.T) {
	star := startDelegate(t, answer(starTrips))
	trust, starToken, _ := testTrust(t)
	srv, err := New(Config{Trust: trust, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, srv)
	reg, book := "/Services/FlightsSearchReg/Register/star", booking.Path
	auth := map[string]string{"Authorization": "Bearer " + starToken}
	bookHeader := map[string]string{"Idempotency-Key": "k1"}
	legs := `{"seller":"LY","flight":"LY001"},`
	huge := int64(64 << 20)

	for _, c := range []struct {
		name   string
		up     upload
		status int
		says   string
	}{
		{"64 MiB registration, read while sending",
			upload{"PUT", reg, auth, &pacedBody{head: `{"uri":"http://x/`, filler: "a", n: huge}, true}, 413, "larger than"},
		{"64 MiB booking, read while sending",
			upload{"POST", book, bookHeader, &pacedBody{head: `{"alliance":"star","legs":[`, filler: legs, n: huge}, true}, 413, "larger than"},
		{"4 MiB over the limit, read after sending",
			upload{"PUT", reg, auth, &pacedBody{head: `{"uri":"http://x/`, filler: "a", n: maxBodyBytes + 4<<20}, false}, 413, "larger than"},
		{"deep nesting",
			upload{"PUT", reg, auth, &pacedBody{head: `{"uri":`, filler: "[", n: 40000}, false}, 400, "depth"},
		{"deep nesting in 64 MiB, read while sending",
			upload{"POST", book, bookHeader, &pacedBody{head: `{"alliance":"star","legs":`, filler: "[", n: huge}, true}, 400, "depth"},
		{"64 MiB registration without a token",
			upload{"PUT", reg, nil, &pacedBody{head: `{"uri":"http://x/`, filler: "a", n: huge}, true}, 401, "Authorization"},
	} {
		resp, body := c.up.send(t, addr)
		var e ErrorBody
		if err := json.Unmarshal(body, &e); resp.StatusCode != c.status || err != nil || !strings.Contains(e.Error, c.says) {
			t.Errorf("%s: %d %q, want %d with an error saying %q", c.name, resp.StatusCode, body, c.status, c.says)
		}
		if !resp.Close {
			t.Errorf("%s: the answer does not close the connection (Connection: %q)", c.name, resp.Header.Get("Connection"))
		}
	}

	resp, b := doAuth(t, http.MethodPut, "http://"+addr+reg, regBody(star.URI), auth["Authorization"])
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a registration after the big bodies: %d %s", resp.StatusCode, b)
	}
	resp, b = doAuth(t, http.MethodGet, "http://"+addr+"/Services/FlightsSearch/flight?"+query, "", "")
	var a Answer
	if err := json.Unmarshal(b, &a); resp.StatusCode != http.StatusOK || err != nil || !a.Complete || len(a.Trips) != 2 {
		t.Errorf("a search after the big bodies: %d %s", resp.StatusCode, b)
	}
}

// TestLimitedBody: exactly the limit is read in full; one byte more is a *http.MaxBytesError
// naming the limit, and the bytes up to the limit are still delivered. A body is consumed once
// its end was seen or its Content-Length read.
func TestLimitedBody(t *testing.T) {
	for _, c := range []struct {
		size   int
		tooBig bool
	}{{10, false}, {11, false}, {0, false}, {11, true}, {4096, true}} {
		b := &limitedBody{rc: io.NopCloser(strings.NewReader(strings.Repeat("x", c.size))), left: 10, limit: 10}
		got, err := io.ReadAll(b)
		var mbe *http.MaxBytesError
		switch {
		case c.size > 10 && (!errors.As(err, &mbe) || mbe.Limit != 10 || len(got) != 10):
			t.Errorf("%d bytes: %d read, %v", c.size, len(got), err)
		case c.size <= 10 && (err != nil || len(got) != c.size):
			t.Errorf("%d bytes: %d read, %v", c.size, len(got), err)
		}
		if want := c.size <= 10; b.consumed(-1) != want {
			t.Errorf("%d bytes, length unknown: consumed %v", c.size, !want)
		}
		if want := c.size <= 11; b.consumed(int64(c.size)) != want {
			t.Errorf("%d bytes, length given: consumed %v", c.size, !want)
		}
	}
}
