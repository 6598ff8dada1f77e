package soap

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// streamPost sends a POST with a body of n bytes made by chunk (repeated) on a raw connection.
// With whileSending, it reads the answer while it sends, as a client streaming a big upload does;
// otherwise it sends the whole body first, as simple clients do. It returns the answer's status
// and body, which must arrive although the server refused the body.
func streamPost(t *testing.T, addr, path, head string, chunk string, n int, whileSending bool, pace time.Duration) (int, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	answer := make(chan *http.Response, 1)
	failed := make(chan error, 1)
	read := func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			failed <- err
			return
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil && len(body) == 0 {
			failed <- err
			return
		}
		resp.Body = io.NopCloser(strings.NewReader(string(body)))
		answer <- resp
	}
	if whileSending {
		go read()
	}
	_, _ = io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: text/xml; charset=utf-8\r\n"+
		"Content-Length: "+strconv.Itoa(len(head)+n)+"\r\n\r\n"+head)
	send := func() {
		for sent := 0; sent < n; sent += len(chunk) {
			if _, err := io.WriteString(conn, chunk[:min(len(chunk), n-sent)]); err != nil {
				return // the server closed after answering: expected for a huge body
			}
			time.Sleep(pace) // a client on a slower link
		}
	}
	if whileSending {
		go send()
	} else {
		send()
		go read()
	}
	select {
	case resp := <-answer:
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	case err := <-failed:
		t.Fatalf("no answer to a %d-byte upload: %v", n, err)
	case <-time.After(60 * time.Second):
		t.Fatalf("no answer to a %d-byte upload within a minute", n)
	}
	return 0, ""
}

// TestOversizedAndDeepBodies: an upload far over the limit gets a fault the client reads while
// it is still sending; 1.4 MB of nested elements, and a body a few times the limit, get a fault
// even a client that reads only after sending everything can read — not a reset. The server keeps
// serving. (On loopback Go's own lingering close already saves these small cases; the handler's
// bounded drain is what saves larger uploads on slower links, which a loopback test cannot show.)
func TestOversizedAndDeepBodies(t *testing.T) {
	s := startServer(t, serverOps{maxBody: 64 << 20})
	addr := strings.TrimPrefix(s.URL, "http://")
	envHead := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getTrips xmlns="urn:flightalliance:v1"><Src>`
	status, body := streamPost(t, addr, SellerServicePath, envHead, strings.Repeat("A", 64<<10), 64<<20, true, 0)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "exceeds") {
		t.Errorf("64 MiB upload: HTTP %d %q", status, body)
	}
	status, body = streamPost(t, addr, SellerServicePath, envHead, strings.Repeat("<a>", 1<<12), 1400<<10, false, 0)
	if status != http.StatusInternalServerError || !strings.Contains(body, "faultstring") || strings.Contains(body, "exceeds") {
		t.Errorf("1.4 MB of nested elements: HTTP %d %q", status, body)
	}
	// Over the limit of a server with the default limit (1 MiB), from a client on a slower link
	// that reads only once it has sent everything: 8 MiB in 64 KiB pieces, 1 ms apart.
	small := startServer(t, serverOps{})
	status, body = streamPost(t, strings.TrimPrefix(small.URL, "http://"), SellerServicePath, envHead, strings.Repeat("A", 64<<10), 8<<20, false, time.Millisecond)
	if status != http.StatusRequestEntityTooLarge || !strings.Contains(body, "exceeds") {
		t.Errorf("8 MiB upload over a 1 MiB limit, read after sending: HTTP %d %q", status, body)
	}
	if _, err := s.seller().GetTrips(t.Context(), GetTripsRequest{Src: "TLV", Dst: "JFK", Date: "2026-12-01"}); err != nil {
		t.Errorf("a call after the big bodies: %v", err)
	}
}
