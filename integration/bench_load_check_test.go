package integration

import (
	"bytes"
	"encoding/json"
	"flightalliance/alliance/trip"
	"flightalliance/search"
	"fmt"
	"hash/maphash"
	"net/http"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// refAnswerOf is the reference's answer to in's query as the search server writes it (as
// refQuery.answer builds it), cut to its first limit trips when limit > 0 (the query echo then
// carries the limit; total stays the whole list's).
func refAnswerOf(in refQuery, limit int) search.Answer {
	ts := trip.Build(trip.Query{Src: in.q.src, Dst: in.q.dst, Date: in.q.date, MinConnection: 30 * time.Minute}, in.fromSrc, in.toDst)
	total := len(ts)
	if limit > 0 {
		ts = ts[:min(limit, len(ts))]
	}
	ans := search.Answer{
		Query:     search.QueryEcho{Src: in.q.src, Dst: in.q.dst, Date: in.q.date.String(), Limit: limit},
		Total:     total,
		Trips:     make([]search.Trip, len(ts)),
		Complete:  true,
		Alliances: []search.AllianceStatus{{Name: in.alliance, Complete: true, MissingSellers: []string{}}},
	}
	for i, t := range ts {
		legs := make([]search.Leg, len(t.Legs))
		for j, f := range t.Legs {
			legs[j] = search.Leg{Flight: f.Number, Seller: f.Seller, Alliance: in.alliance, Src: f.Src, Dst: f.Dst,
				Departure: f.Departure.Format(time.RFC3339), Arrival: f.Arrival.Format(time.RFC3339),
				Price: f.Price.String(), Seats: f.Seats}
		}
		ans.Trips[i] = search.Trip{Price: t.Price.String(), Legs: legs}
	}
	return ans
}

// loadChecks checks the load's answers against the reference without decoding them in the timed
// loop: an answer byte for byte the reference's JSON (or a body already verified) is accepted on
// its hash; any other body is kept and verified after the phase (verify), decoded and compared
// trip by trip (price and flights, in order), total and completeness.
type loadChecks struct {
	seed    maphash.Seed
	inputs  []refQuery
	mu      sync.Mutex
	ok      map[answerKey]bool
	pending map[answerKey][]byte
	// notByteEqual counts distinct bodies that differ from the reference's bytes but not in
	// content (trips, order, total, completeness); example is the first one's difference.
	notByteEqual int
	example      string
}

type answerKey struct {
	limit, query int
	hash         uint64
}

// newLoadChecks computes every query's reference answers (whole and limited to each of limits).
func newLoadChecks(inputs []refQuery, limits ...int) *loadChecks {
	c := &loadChecks{seed: maphash.MakeSeed(), inputs: inputs, ok: map[answerKey]bool{}, pending: map[answerKey][]byte{}}
	for i, in := range inputs {
		for _, limit := range append([]int{0}, limits...) {
			ans := refAnswerOf(in, limit)
			c.ok[answerKey{limit, i, maphash.Bytes(c.seed, append(ans.AppendJSON(nil), '\n'))}] = true
		}
	}
	return c
}

// see takes one answer to query i with limit; it is checked now if it is known, later if not.
func (c *loadChecks) see(limit, i int, body []byte) {
	k := answerKey{limit, i, maphash.Bytes(c.seed, body)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ok[k] {
		return
	}
	if _, seen := c.pending[k]; !seen {
		c.pending[k] = bytes.Clone(body)
	}
}

// verify checks the bodies kept since the last verify; it returns the first wrong answer.
func (c *loadChecks) verify() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer clear(c.pending)
	for k, body := range c.pending {
		in := c.inputs[k.query]
		want := refAnswerOf(in, k.limit)
		var got search.Answer
		if err := json.Unmarshal(body, &got); err != nil {
			return fmt.Errorf("%v limit=%d: not JSON (%v): %.200s", in.q, k.limit, err, body)
		}
		if !got.Complete || len(got.Alliances) != 1 || !got.Alliances[0].Complete || len(got.Alliances[0].MissingSellers) > 0 {
			return fmt.Errorf("%v limit=%d: incomplete: complete=%v alliances=%+v", in.q, k.limit, got.Complete, got.Alliances)
		}
		gotTrips, wantTrips := renderedTrips(got), renderedTrips(want)
		if got.Total != want.Total || !slices.Equal(gotTrips, wantTrips) {
			return fmt.Errorf("%v limit=%d: total %d, %d trips %v…; the reference: total %d, %d trips %v…",
				in.q, k.limit, got.Total, len(gotTrips), head(gotTrips), want.Total, len(wantTrips), head(wantTrips))
		}
		c.ok[k] = true
		c.notByteEqual++
		if c.example == "" {
			ref := append(want.AppendJSON(nil), '\n')
			at := 0
			for at < min(len(ref), len(body)) && ref[at] == body[at] {
				at++
			}
			c.example = fmt.Sprintf("%v limit=%d: equal trips, other bytes from byte %d: got %.120q, the reference %.120q",
				in.q, k.limit, at, body[at:], ref[at:])
		}
	}
	return nil
}

// The counters read before and after each phase: the search server's and the sum over the
// machines. Absent ones count 0.
var (
	loadSearchCounters = []string{"search_hedges_sent_total", "search_hedges_won_total", "search_hedges_refused_total",
		"search_delegate_calls_total", "search_alternate_calls_total", "search_not_modified_total", "search_kept_answers_total",
		"search_shared_calls_total", `search_ordered_total{how="turn"}`, `search_ordered_total{how="waited"}`,
		`search_ordered_total{how="waited_out"}`, `search_ordered_total{how="beside"}`}
	loadMachineCounters = []string{"flightalliance_airline_hedges_sent_total", "flightalliance_airline_hedges_won_total",
		"flightalliance_airline_hedges_refused_total", "flightalliance_airline_holder_calls_total",
		"flightalliance_airline_hedged_sellers_total", "flightalliance_airline_cache_hits_total",
		"flightalliance_airline_cache_misses_total", "flightalliance_airline_shared_searches_total",
		"flightalliance_airline_not_modified_total", "flightalliance_airline_flight_list_hits_total",
		"flightalliance_airline_flight_list_misses_total"}
)

// loadSnapshot is every counter above (labelled series summed) and the CPU time of every process.
type loadSnapshot struct {
	at                     time.Time
	counters               map[string]float64
	searchCPU, clientCPU   int64 // clock ticks; the client's (this process) from getrusage
	delegateCPU, othersCPU int64
	searchDials            int64
}

func sumCounters(into map[string]float64, series map[string]float64, families []string) {
	for name, v := range series {
		family, _, _ := strings.Cut(name, "{")
		if slices.Contains(families, family) {
			into[family] += v
		}
		if name != family && slices.Contains(families, name) { // one labelled series, asked for by name
			into[name] += v
		}
	}
}

func selfCPUTicks() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	us := ru.Utime.Sec*1e6 + ru.Utime.Usec + ru.Stime.Sec*1e6 + ru.Stime.Usec
	return us * clockTicks / 1e6
}

// snapshot reads the search server's and every live machine's /metrics (on its SOAP address)
// and the processes' CPU times.
func (l *loadRun) snapshot(b *testing.B, client *http.Client) loadSnapshot {
	s := loadSnapshot{at: time.Now(), counters: map[string]float64{}, clientCPU: selfCPUTicks(),
		searchCPU: cpuTicksOf(l.searchProc), searchDials: l.dials.Load()}
	sumCounters(s.counters, searchMetrics(b, client, l.base), loadSearchCounters)
	for name, ticks := range l.alliance.cpuTicks() {
		sumCounters(s.counters, searchMetrics(b, client, l.alliance.machines[name].url()), loadMachineCounters)
		if name == l.delegate {
			s.delegateCPU += ticks
		} else {
			s.othersCPU += ticks
		}
	}
	return s
}
