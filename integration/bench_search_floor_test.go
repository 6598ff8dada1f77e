package integration

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"flightalliance/soap"
	"flightalliance/tests/framework"
)

// transfers is, per query, how long the bytes of a whole cold REST answer take to cross the two
// hops after the delegate's join by themselves: the delegate's getTrips answer as the search
// server asks for it (SOAP, legs shared; its size read from the cold alliance's delegate) and the
// search server's JSON (jsonSizes, the reference's), each fetched over a kept HTTP/1.1 TLS
// connection (the servers' TLS settings, the benchmark client's transport) from a server in this
// process that only writes that many bytes: the median of 5 fetches of each. With the
// reference's join, sort and JSON it is the floor of BenchmarkSearchREST's rest-cold under
// DESIGN.md's path (the gather from the holders, the encodings, decodings and the check of every
// trip at the search server left out): no work but the reference's, and the bytes. In-process,
// it also leaves out the wake-ups of the processes a hop crosses, so it is below what any
// build of the three processes can do.
func transfers(b *testing.B, a *testAlliance, queries []query, jsonSizes []float64) (out []time.Duration, soapSizes []float64) {
	b.Helper()
	soapSizes = make([]float64, len(queries))
	counted := &countingTransport{base: http1Transport()}
	c := soap.NewSellerClient(a.machines[a.delegate()].url()+"/Services/SellerService",
		soap.ClientOptions{Timeout: 2 * time.Minute, MaxBody: 256 << 20, HTTPClient: &http.Client{Transport: counted}})
	for i, q := range queries {
		resp, err := c.GetTrips(context.Background(), soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String(), ShareLegs: true})
		if err != nil || !resp.Complete {
			b.Fatalf("getTrips %v: %v", q, err)
		}
		soapSizes[i] = float64(counted.last)
	}

	files := framework.IssueFiles(b, b.TempDir(), "floor")
	serverTLS, err := files.Server(true)
	if err != nil {
		b.Fatal(err)
	}
	payload := make([]byte, 64<<20)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n < 0 || n > len(payload) {
			http.Error(w, "n: a byte count up to 64 MiB", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(n))
		w.Write(payload[:n])
	}))
	srv.TLS = serverTLS
	srv.StartTLS()
	defer srv.Close()
	client := &http.Client{Transport: tuned(http1Transport(), 1), Timeout: time.Minute}
	var buf []byte
	fetch := func(n int) time.Duration {
		t0 := time.Now()
		resp, err := client.Get(srv.URL + "/?n=" + strconv.Itoa(n))
		if err != nil {
			b.Fatal(err)
		}
		buf, err = readAll(resp.Body, buf[:0])
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || len(buf) != n {
			b.Fatalf("fetching %d bytes: status %d, %d bytes, %v", n, resp.StatusCode, len(buf), err)
		}
		return time.Since(t0)
	}
	fetch(1 << 20) // the connection, and the TLS records past their first small ones
	out = make([]time.Duration, len(queries))
	for i := range queries {
		var runs []time.Duration
		for range 5 {
			runs = append(runs, fetch(int(soapSizes[i]))+fetch(int(jsonSizes[i])))
		}
		out[i] = median(runs)
	}
	return out, soapSizes
}

// countingTransport counts the bytes read of the body of the last response through it (one
// request at a time).
type countingTransport struct {
	base http.RoundTripper
	last int64
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.last = 0 // a call's WSDL is fetched before its POST
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &t.last}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	*c.n += int64(n)
	return n, err
}
