package integration

import (
	"bytes"
	"context"
	"flightalliance/soap"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// restCall GETs one search and reads the whole answer; it returns the answer's size.
func restCall(client *http.Client, base string, q query, limit int) (int, error) {
	u := searchURL(base, q)
	if limit > 0 {
		u += "&" + url.Values{"limit": {strconv.Itoa(limit)}}.Encode()
	}
	resp, err := client.Get(u)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	// Read into a buffer kept for the next call, as a client under load does: allocating and
	// growing a megabyte per answer (io.ReadAll) costs this process more than the search server's
	// whole warm path, and would be counted in the answer's time.
	bp := bodyBuffers.Get().(*[]byte)
	defer bodyBuffers.Put(bp)
	body, err := readAll(resp.Body, (*bp)[:0])
	*bp = body
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%v: %s: %.200s", q, resp.Status, body)
	}
	// Only the ends are checked: decoding the whole answer is the client's work, not the server's.
	head := body[:min(len(body), 200)]
	if !bytes.Contains(head, []byte(`"total":`)) || !bytes.HasSuffix(bytes.TrimSpace(body), []byte(`"complete":true,"missing_sellers":[]}]}`)) {
		return 0, fmt.Errorf("%v: not a complete answer: %.200s…%.200s", q, head, body[max(0, len(body)-200):])
	}
	return len(body), nil
}

// bodyBuffers are restCall's reused answer buffers.
var bodyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// perQuery times calls REST calls per query and returns each query's median; with warmFirst,
// one untimed call per query comes first.
func perQuery(b *testing.B, client *http.Client, base string, queries []query, limit, calls int, warmFirst bool) []time.Duration {
	out := make([]time.Duration, len(queries))
	for i, q := range queries {
		if warmFirst {
			if _, err := restCall(client, base, q, limit); err != nil {
				b.Fatal(err)
			}
		}
		var runs []time.Duration
		for range calls {
			t0 := time.Now()
			if _, err := restCall(client, base, q, limit); err != nil {
				b.Fatal(err)
			}
			runs = append(runs, time.Since(t0))
		}
		out[i] = median(runs)
	}
	return out
}

// allCalls times calls REST calls per query and returns every call's time.
func allCalls(b *testing.B, client *http.Client, base string, queries []query, limit, calls int) []time.Duration {
	var out []time.Duration
	for _, q := range queries {
		for range calls {
			t0 := time.Now()
			if _, err := restCall(client, base, q, limit); err != nil {
				b.Fatal(err)
			}
			out = append(out, time.Since(t0))
		}
	}
	return out
}

// delegateCalls times getTrips straight to the alliance's delegate: per query, the median of
// calls (after an untimed first call with warmFirst).
func delegateCalls(b *testing.B, a *testAlliance, queries []query, calls int, warmFirst bool) []time.Duration {
	c := soap.NewSellerClient(a.machines[a.delegate()].url()+"/Services/SellerService", soap.ClientOptions{Timeout: 2 * time.Minute, MaxBody: 256 << 20, HTTPClient: httpClient})
	call := func(q query) {
		resp, err := c.GetTrips(context.Background(), soap.GetTripsRequest{Src: q.src, Dst: q.dst, Date: q.date.String()})
		if err != nil || !resp.Complete {
			b.Fatalf("getTrips %v: %v", q, err)
		}
	}
	out := make([]time.Duration, len(queries))
	for i, q := range queries {
		if warmFirst {
			call(q)
		}
		var runs []time.Duration
		for range calls {
			t0 := time.Now()
			call(q)
			runs = append(runs, time.Since(t0))
		}
		out[i] = median(runs)
	}
	return out
}

// throughput runs n calls from the given number of concurrent clients and returns answers/s.
func throughput(b *testing.B, client *http.Client, base string, queries []query, limit, clients, n int) float64 {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= n || failed.Load() != nil {
					return
				}
				if _, err := restCall(client, base, queries[k%len(queries)], limit); err != nil {
					failed.Store(&err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	return float64(n) / time.Since(start).Seconds()
}
