package console

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"flightalliance/search/internal/rest"
	"flightalliance/search/registry"
)

// AlliancesPath is the live picture the web console polls.
const AlliancesPath = "/Services/FlightsSearch/alliances"

// The live picture's deadlines: a paused machine is "unreachable" after liveProbeTimeout, and one
// refresh ends within liveStatusTimeout + liveProbeTimeout, so a page polling every second shows a
// change within a few seconds.
const (
	liveStatusTimeout  = time.Second
	liveProbeTimeout   = 800 * time.Millisecond
	livePictureMaxAge  = 500 * time.Millisecond // pages polling together share one refresh
	liveMaxStatusBytes = 4 << 20
	MaxMachines        = 256 // per alliance: each is probed, so a /status cannot make the server call thousands
)

// Live answers GET AlliancesPath with a LivePicture of the registrations regs gives, asking the
// machines with client (see Client) and stamping the picture with now.
//
// The console polls this every second rather than holding a server-sent event stream: each
// poll is one complete picture (a page that missed some is never behind by more than one), it
// needs no goroutine or connection per watching page, it survives the server's WriteTimeout
// (which would cut a stream), and nothing is asked of the alliances while no one watches.
func Live(client *http.Client, now func() time.Time, regs func() []registry.Registration) http.HandlerFunc {
	lr := &liveReader{client: client, now: now, known: map[string]map[string]string{}}
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			rest.Error(w, http.StatusBadRequest, "query string: the live picture takes no query parameters")
			return
		}
		rest.JSON(w, http.StatusOK, lr.picture(r.Context(), regs()))
	}
}

// Client is the default client of the machines' /status and /healthz: TLS as the delegates'
// calls have it, tc (the roots that verify the machines, the certificate shown to them).
func Client(tc *tls.Config) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 4
	if tc != nil {
		t.TLSClientConfig = tc.Clone()
	}
	return &http.Client{Transport: t}
}

// liveReader assembles the live picture on demand: the /status of each alliance's delegate (or
// the first of its alternates that answers), then a /healthz probe of every machine, all
// bounded by deadlines. It remembers the machines it saw, so that a machine that stops
// answering is shown down until the alliance removes it.
type liveReader struct {
	client *http.Client
	now    func() time.Time

	mu     sync.Mutex
	last   LivePicture
	lastAt time.Time                    // monotonic: the age of last
	known  map[string]map[string]string // alliance → machine → URL
}

// picture returns the picture of regs, refreshed unless the last one is younger than
// livePictureMaxAge. Callers wait for one refresh together.
func (l *liveReader) picture(ctx context.Context, regs []registry.Registration) LivePicture {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.lastAt.IsZero() && time.Since(l.lastAt) < livePictureMaxAge {
		return l.last
	}
	// One page going away must not spoil the refresh the others wait for.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), liveStatusTimeout+liveProbeTimeout+time.Second)
	defer cancel()
	pic := LivePicture{At: l.now().UTC(), Alliances: make([]AllianceLive, len(regs))}
	known := make([]map[string]string, len(regs))
	var wg sync.WaitGroup
	for i, reg := range regs {
		wg.Go(func() { pic.Alliances[i], known[i] = l.read(ctx, reg, l.known[reg.Name]) })
	}
	wg.Wait()
	l.known = map[string]map[string]string{} // alliances unregistered are forgotten
	for i, reg := range regs {
		l.known[reg.Name] = known[i]
	}
	l.last, l.lastAt = pic, time.Now()
	return pic
}

// read is one alliance's picture, and the machines to know from now on.
func (l *liveReader) read(ctx context.Context, reg registry.Registration, known map[string]string) (AllianceLive, map[string]string) {
	st, err := l.status(ctx, reg)
	in := allianceInputs{reg: reg, status: st, machines: trackedMachines(st, known), probes: map[string]probeResult{}}
	if err != nil {
		in.statusErr = err.Error()
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, u := range in.machines {
		if u == "" {
			continue
		}
		wg.Go(func() {
			p := l.probe(ctx, u)
			mu.Lock()
			in.probes[name] = p
			mu.Unlock()
		})
	}
	wg.Wait()
	return assemblePicture(in), in.machines
}

// status asks the delegate and its alternates for /status at once and returns the first
// answer in their order: the delegate's when it answers, else the first alternate's that does.
func (l *liveReader) status(ctx context.Context, reg registry.Registration) (*machineStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, liveStatusTimeout)
	defer cancel()
	targets := reg.Targets()
	type result struct {
		st  *machineStatus
		err error
	}
	results := make([]chan result, len(targets))
	for i, uri := range targets {
		results[i] = make(chan result, 1)
		go func() {
			st, err := l.fetchStatus(ctx, uri, reg.Name)
			results[i] <- result{st, err}
		}()
	}
	var errs []error
	for i, ch := range results {
		r := <-ch
		if r.err == nil {
			return r.st, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", liveHost(targets[i]), r.err))
	}
	return nil, fmt.Errorf("no machine of %s answered /status: %w", reg.Name, errors.Join(errs...))
}

// fetchStatus reads the /status of the machine whose SOAP endpoint is uri.
func (l *liveReader) fetchStatus(ctx context.Context, uri, alliance string) (*machineStatus, error) {
	u, err := liveURL(uri, "/status")
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, errors.New(liveReason(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("answered %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, liveMaxStatusBytes+1))
	if err != nil {
		return nil, errors.New(liveReason(err))
	}
	if len(body) > liveMaxStatusBytes {
		return nil, fmt.Errorf("status over %d bytes", liveMaxStatusBytes)
	}
	var st machineStatus
	if err := json.Unmarshal(body, &st); err != nil {
		return nil, fmt.Errorf("status is not the JSON of an airline server: %v", err)
	}
	if st.Alliance != alliance {
		return nil, fmt.Errorf("it is a machine of alliance %q", rest.Clip(st.Alliance))
	}
	if n := len(st.View); n > MaxMachines || (st.Member != nil && len(st.Member.Members) > MaxMachines) {
		return nil, fmt.Errorf("its status lists more than %d machines", MaxMachines)
	}
	return &st, nil
}

// probe asks a machine's /healthz; a machine that does not answer 200 within liveProbeTimeout is
// down (refused, or an error answer) or unreachable (no answer in time).
func (l *liveReader) probe(ctx context.Context, base string) probeResult {
	u, err := liveURL(base, "/healthz")
	if err != nil {
		return probeResult{Err: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, liveProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return probeResult{Err: err.Error()}
	}
	resp, err := l.client.Do(req)
	if err != nil {
		var ne net.Error
		timedOut := errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
		if timedOut {
			return probeResult{TimedOut: true, Err: fmt.Sprintf("no answer to /healthz within %s", liveProbeTimeout)}
		}
		return probeResult{Err: liveReason(err)}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode != http.StatusOK {
		return probeResult{Err: "/healthz answered " + resp.Status}
	}
	return probeResult{OK: true}
}

// liveURL is path on the machine at raw (a SOAP endpoint or a machine's base URL): only its
// scheme and host are kept, so the console never asks a machine for anything but path.
func liveURL(raw, path string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", rest.Clip(raw))
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: path}).String(), nil
}

// liveReason is an HTTP client error without the method and URL the caller already names.
func liveReason(err error) string {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err
	}
	return strings.TrimSpace(err.Error())
}

func liveHost(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Host != "" {
		return u.Host
	}
	return rest.Clip(uri)
}
