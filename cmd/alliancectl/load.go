package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// errNotAllComplete makes `load` exit non-zero when any search was incomplete or failed.
var errNotAllComplete = errors.New("not every search was answered complete")

func cmdLoad(ctx context.Context, args []string, out io.Writer) error {
	fs, dir := newFlags("load", "load --rate R --for D [--timeout 5s] [--seed 1] [--search URL --data DIR [--cacert F | --keys DIR]]", out)
	rate := fs.Float64("rate", 20, "searches per second, sent on schedule whether or not earlier ones answered (open loop)")
	dur := fs.Duration("for", 10*time.Second, "how long to send searches")
	timeout := fs.Duration("timeout", 5*time.Second, "deadline of each search")
	seed := fs.Uint64("seed", 1, "seed of the choice of routes")
	rf := addRemoteFlags(fs, false)
	data := fs.String("data", "", "with --search: a directory of the sellers' CSV files (the machines' --seller files); the searches are their routes")
	if _, err := parse(fs, args, 0, ""); err != nil {
		return err
	}
	switch {
	case *rate <= 0 || *rate > 10000:
		return usagef("--rate: %v, want more than 0 and at most 10000 searches per second", *rate)
	case *dur <= 0:
		return usagef("--for: %v, want a positive duration", *dur)
	case *timeout <= 0:
		return usagef("--timeout: %v, want a positive duration", *timeout)
	}
	pl, err := loadTarget(ctx, *dir, rf, *data)
	if err != nil {
		return err
	}
	pl.rate, pl.dur, pl.seed, pl.client.Timeout = *rate, *dur, *seed, *timeout
	fmt.Fprintf(out, "load: %v searches/s for %v against %s, over %d routes of %s\n", *rate, *dur, pl.base, len(pl.queries), pl.routesFrom)
	rs := runLoad(ctx, pl)
	sum := summarize(rs)
	sum.write(out)
	if ctx.Err() != nil {
		fmt.Fprintln(out, "  (interrupted)")
	}
	if sum.Complete != sum.Total {
		return errNotAllComplete
	}
	return nil
}

// loadTarget is where load sends its searches and which: --dir's search server and generated
// data, or --search's server and the routes of --data's CSV files.
func loadTarget(ctx context.Context, dir string, rf *remoteFlags, data string) (loadPlan, error) {
	rm, err := rf.open()
	switch {
	case err != nil:
		return loadPlan{}, err
	case rf.endpoints != "":
		return loadPlan{}, usagef("--endpoints: load searches through the search server: give --search URL (and --data)")
	case rf.search == "" && data != "":
		return loadPlan{}, usagef("--data goes with --search (without it, load searches the routes of --dir's generated data)")
	case rf.search != "" && data == "":
		return loadPlan{}, usagef("--data: load --search needs the sellers' CSV files (the machines' --seller files) to search routes that have flights")
	}
	if rf.search != "" {
		qs, err := routesIn(data)
		if err != nil {
			return loadPlan{}, err
		}
		c := rm.httpClient(5 * time.Second)
		if _, err := rm.registrations(ctx, c); err != nil {
			return loadPlan{}, err // say now what is wrong with --search or the CA, not once per search
		}
		t := c.Transport.(*http.Transport)
		t.MaxIdleConnsPerHost = 256
		return loadPlan{base: rm.search, queries: qs, routesFrom: "the CSV files in " + data, client: &http.Client{Transport: t}}, nil
	}
	s, _, err := openState(dir)
	if err != nil {
		return loadPlan{}, err
	}
	qs, err := routes(s.Data, allSellers(s))
	if err != nil {
		return loadPlan{}, err
	}
	t, err := s.transport()
	if err != nil {
		return loadPlan{}, err
	}
	t.MaxIdleConnsPerHost = 256
	return loadPlan{base: s.Search, queries: qs, routesFrom: "the generated data", client: &http.Client{Transport: t}}, nil
}

type loadPlan struct {
	base       string
	routesFrom string // where the queries come from, for a human
	queries    []Query
	rate       float64
	dur        time.Duration
	seed       uint64
	client     *http.Client // with each search's deadline
}

// runLoad sends searches at a fixed rate for the plan's duration, each in its own goroutine so a
// slow answer never delays the next search, and returns every result once all have answered.
func runLoad(ctx context.Context, pl loadPlan) []result {
	c := pl.client
	defer c.CloseIdleConnections()
	rng := rand.New(rand.NewPCG(pl.seed, 0x10ad))
	interval := time.Duration(float64(time.Second) / pl.rate)
	var (
		mu sync.Mutex
		rs []result
		wg sync.WaitGroup
	)
	start := time.Now()
	for i := 0; ; i++ {
		due := start.Add(time.Duration(i) * interval)
		if due.Sub(start) >= pl.dur {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(due)):
		}
		if ctx.Err() != nil {
			break
		}
		q := pl.queries[rng.IntN(len(pl.queries))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := searchOnce(ctx, c, pl.base, q)
			r.Latency, r.At = time.Since(due), due.Sub(start)
			mu.Lock()
			rs = append(rs, r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return rs
}

func searchOnce(ctx context.Context, c *http.Client, base string, q Query) result {
	a, err := search(ctx, c, base, q)
	if err != nil {
		return result{Outcome: outcomeError, Detail: errorKind(err)}
	}
	if a.Complete {
		return result{Outcome: outcomeComplete}
	}
	var missing []string
	for _, st := range a.Alliances {
		if !st.Complete {
			m := st.Name + " missing [" + strings.Join(st.MissingSellers, ",") + "]"
			if st.Error != "" {
				m += " " + shorten(st.Error, 160)
			}
			missing = append(missing, m)
		}
	}
	return result{Outcome: outcomeIncomplete, Detail: "incomplete: " + strings.Join(missing, "; ")}
}

// errorKind turns an error into a short class for counting, without the query's URL.
func errorKind(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, context.DeadlineExceeded) || strings.Contains(msg, "Client.Timeout"):
		return "error: timeout"
	case strings.Contains(msg, "connection refused"):
		return "error: connection refused"
	}
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "GET ") {
		msg = msg[i+2:]
	}
	return "error: " + shorten(msg, 100)
}
