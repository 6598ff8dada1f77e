package integration

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"flightalliance/tests/framework"
)

// loadRun is the benchmark's alliance, search server and checks.
type loadRun struct {
	base       string
	searchProc *framework.Proc
	alliance   *testAlliance
	delegate   string
	queries    []query
	checks     *loadChecks
	dials      atomic.Int64 // connections dialed to the search server
}

// newClient is the load's HTTP client: up to loadWorkers idle connections to the search server,
// HTTP/1.1 (the search server would otherwise agree on HTTP/2, every client on one connection),
// its dials counted.
func (l *loadRun) newClient() *http.Client {
	t := tuned(http1Transport(), loadWorkers)
	host := strings.TrimPrefix(l.base, "https://")
	dial := t.DialContext
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == host {
			l.dials.Add(1)
		}
		return dial(ctx, network, addr)
	}
	return &http.Client{Transport: t, Timeout: 2 * time.Minute}
}

// warmConns opens the clients' connections (and their TLS sessions) before the first phase.
func (l *loadRun) warmConns(b *testing.B, client *http.Client) {
	for round := 0; l.dials.Load() < loadWorkers && round < 20; round++ {
		var wg sync.WaitGroup
		for range loadWorkers {
			wg.Go(func() {
				resp, err := client.Get(l.base + "/healthz")
				if err != nil {
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.ProtoMajor != 1 {
					b.Errorf("the search server answers over %s, want HTTP/1.1", resp.Proto)
				}
			})
		}
		wg.Wait()
	}
	b.Logf("%d connections to the search server opened before the load", l.dials.Load())
}

// warmPools sends loadWorkers searches at once, twice, each for a pair of the queries on a day
// without flights: the search server's connections to the delegate and the delegate's to the
// holders are opened before the load, as they are in a server that has been running — a burst
// of cold searches would otherwise also pay a TLS handshake per call it adds to a pool. Nothing
// of the measured day is cached by it (the lists it brings are the empty day's).
func (l *loadRun) warmPools(b *testing.B, client *http.Client) {
	empty := l.queries[0].date.AddDays(-30)
	for range 2 {
		var wg sync.WaitGroup
		for i := range loadWorkers {
			wg.Go(func() {
				q := l.queries[i%len(l.queries)]
				q.date = empty
				if _, err := restCall(client, l.base, q, 0); err != nil {
					b.Errorf("warming the pools: %v", err)
				}
			})
		}
		wg.Wait()
	}
}

// loadPhase is one pass of the load and what it measured.
type loadPhase struct {
	name          string
	limit         int
	mu            sync.Mutex
	lat           []time.Duration
	began         []time.Duration // when each answer's search began, into the phase (as lat)
	query         []int           // which query each answer is of (as lat)
	wall          time.Duration
	startedAt     time.Time // when the phase began, by the wall clock (to find it in the processes' logs)
	shed          atomic.Int64
	noRetryAfter  atomic.Int64
	errors        int
	firstErrs     []string
	wrong         error // the first wrong answer, found after the phase
	before, after loadSnapshot
	cores         coreTicks // the machine's CPU time over the phase itself (/proc/stat)
}

func (p *loadPhase) delta(counter string) float64 {
	return p.after.counters[counter] - p.before.counters[counter]
}

func (p *loadPhase) quantile(q float64) time.Duration {
	if len(p.lat) == 0 {
		return 0
	}
	s := slices.Clone(p.lat)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*q))]
}

// slowest describes the n slowest answers: latency, and when their search began.
func (p *loadPhase) slowest(n int) string {
	idx := make([]int, len(p.lat))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(p.lat[b], p.lat[a]) })
	var out []string
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, fmt.Sprintf("%.0f ms at %.2f s", ms(p.lat[i]), p.began[i].Seconds()))
	}
	return strings.Join(out, ", ")
}

// writeTimeline writes every answer of the phase, in the order the searches began, to
// dir/<phase>.txt: when it began into the phase and how long it took, in milliseconds (the
// header says when the phase began, to be found in the processes' logs).
func (p *loadPhase) writeTimeline(dir string) error {
	idx := make([]int, len(p.lat))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(p.began[a], p.began[b]) })
	var b strings.Builder
	fmt.Fprintf(&b, "began_ms took_ms query (began_ms counted from %s)\n", p.startedAt.UTC().Format(time.RFC3339Nano))
	for _, i := range idx {
		fmt.Fprintf(&b, "%.1f %.1f %d\n", ms(p.began[i]), ms(p.lat[i]), p.query[i])
	}
	return os.WriteFile(filepath.Join(dir, p.name+".txt"), []byte(b.String()), 0o644)
}

func (p *loadPhase) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errors++
	if len(p.firstErrs) < 3 {
		p.firstErrs = append(p.firstErrs, err.Error())
	}
}

// cpuPerAnswer is the CPU time the search server, the machines and this process spent in the
// phase, per answer, in milliseconds.
func (p *loadPhase) cpuPerAnswer() float64 {
	if len(p.lat) == 0 {
		return 0
	}
	ticks := p.after.searchCPU - p.before.searchCPU + p.after.delegateCPU - p.before.delegateCPU +
		p.after.othersCPU - p.before.othersCPU + p.after.clientCPU - p.before.clientCPU
	return float64(ticks) * 1000 / clockTicks / float64(len(p.lat))
}

// describe is the phase's counters and CPU times, for the log.
func (p *loadPhase) describe() string {
	d := p.delta
	tick := func(before, after int64) float64 { return float64(after-before) / clockTicks }
	return fmt.Sprintf("%s: %d answers in %.2f s, %d shed (%d without Retry-After), %d errors; "+
		"search server: hedges sent/won/refused %.0f/%.0f/%.0f of %.0f delegate calls, %.0f alternate calls, %.0f not modified, %.0f kept answers, %.0f shared calls, ordered turn/waited/waited out/beside %.0f/%.0f/%.0f/%.0f; "+
		"machines: hedges sent/won/refused %.0f/%.0f/%.0f of %.0f holder calls, %.0f hedged sellers, cache %.0f hits %.0f misses, %.0f shared searches, flight lists kept/asked %.0f/%.0f; "+
		"CPU s: search server %.2f, delegate %.2f, other machines %.2f, this process %.2f; %d new connections to the search server; slowest: %s",
		p.name, len(p.lat), p.wall.Seconds(), p.shed.Load(), p.noRetryAfter.Load(), p.errors,
		d("search_hedges_sent_total"), d("search_hedges_won_total"), d("search_hedges_refused_total"), d("search_delegate_calls_total"), d("search_alternate_calls_total"),
		d("search_not_modified_total"), d("search_kept_answers_total"), d("search_shared_calls_total"),
		d(`search_ordered_total{how="turn"}`), d(`search_ordered_total{how="waited"}`), d(`search_ordered_total{how="waited_out"}`), d(`search_ordered_total{how="beside"}`),
		d("flightalliance_airline_hedges_sent_total"), d("flightalliance_airline_hedges_won_total"), d("flightalliance_airline_hedges_refused_total"),
		d("flightalliance_airline_holder_calls_total"), d("flightalliance_airline_hedged_sellers_total"),
		d("flightalliance_airline_cache_hits_total"), d("flightalliance_airline_cache_misses_total"), d("flightalliance_airline_shared_searches_total"),
		d("flightalliance_airline_flight_list_hits_total"), d("flightalliance_airline_flight_list_misses_total"),
		tick(p.before.searchCPU, p.after.searchCPU), tick(p.before.delegateCPU, p.after.delegateCPU),
		tick(p.before.othersCPU, p.after.othersCPU), tick(p.before.clientCPU, p.after.clientCPU),
		p.after.searchDials-p.before.searchDials, p.slowest(5))
}

// run sends n searches (query k%len(queries) for k = 0..n-1, from a shared index) with limit (0:
// the whole list) from loadWorkers clients in a closed loop; it checks every answer.
func (l *loadRun) run(b *testing.B, client *http.Client, name string, limit, n int) *loadPhase {
	p := &loadPhase{name: name, limit: limit}
	urls := make([]string, len(l.queries))
	for i, q := range l.queries {
		urls[i] = searchURL(l.base, q)
		if limit > 0 {
			urls[i] += "&" + url.Values{"limit": {strconv.Itoa(limit)}}.Encode()
		}
	}
	p.before = l.snapshot(b, client)
	var next atomic.Int64
	var wg sync.WaitGroup
	coresBefore := readCoreTicks()
	start := time.Now()
	p.startedAt = start
	for range loadWorkers {
		wg.Go(func() {
			var body []byte
			var lat, began []time.Duration
			var query []int
			for {
				k := int(next.Add(1)) - 1
				if k >= n {
					break
				}
				i := k % len(l.queries)
				var took time.Duration
				var err error
				at := time.Since(start)
				body, took, err = p.get(client, urls[i], body[:0])
				if err != nil {
					p.fail(fmt.Errorf("%v limit=%d: %w", l.queries[i], limit, err))
					continue
				}
				lat, began, query = append(lat, took), append(began, at), append(query, i)
				l.checks.see(limit, i, body)
			}
			p.mu.Lock()
			p.lat, p.began, p.query = append(p.lat, lat...), append(p.began, began...), append(p.query, query...)
			p.mu.Unlock()
		})
	}
	wg.Wait()
	p.wall = time.Since(start)
	p.cores = readCoreTicks().minus(coresBefore)
	p.after = l.snapshot(b, client)
	p.wrong = l.checks.verify()
	return p
}

// get GETs one search into body, retrying after a 503's Retry-After; took is the answered
// attempt's time.
func (p *loadPhase) get(client *http.Client, u string, body []byte) ([]byte, time.Duration, error) {
	for attempt := 0; ; attempt++ {
		t0 := time.Now()
		resp, err := client.Get(u)
		if err != nil {
			return body, 0, err
		}
		if resp.StatusCode == http.StatusServiceUnavailable && attempt < 100 {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			p.shed.Add(1)
			time.Sleep(p.retryAfter(resp.Header.Get("Retry-After")))
			continue
		}
		body, err = readAll(resp.Body, body)
		resp.Body.Close()
		took := time.Since(t0)
		if err != nil {
			return body, 0, err
		}
		if resp.StatusCode != http.StatusOK {
			return body, 0, fmt.Errorf("%s (after %d 503s): %.200s", resp.Status, attempt, body)
		}
		return body, took, nil
	}
}

// retryAfter is a Retry-After's wait (seconds or an HTTP date), 1 s when there is none.
func (p *loadPhase) retryAfter(h string) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(0, time.Until(t))
	}
	p.noRetryAfter.Add(1)
	return time.Second
}

// readAll appends r's bytes to buf, growing it as io.ReadAll does, so that a worker reuses one
// buffer for all its answers.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
