package alliance

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/trip"
	"flightalliance/soap"
)

// sellerService is the SellerService: getTrips, answered by the delegate for the whole alliance.
func (m *Machine) sellerService() soap.Service {
	return soap.SellerService(soap.Op("getTrips", m.getTrips))
}

// getTrips asks one holder of every needed seller for the flights out of src and into dst on the
// date, builds direct trips and connections with the pure trip builder, and answers them sorted.
// A seller no holder answered for is named in MissingSellers; the answer is never silently short.
func (m *Machine) getTrips(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	start := time.Now()
	q, err := m.tripQuery(req)
	if err != nil {
		return nil, err
	}
	if !m.view.isListed() || !m.catalog.isListed() {
		// Until this machine has read the alliance's machines and catalog once it does not know
		// every seller, and an answer could look complete while missing some.
		return nil, soap.ServerFault("not ready: this machine has not read the alliance's state yet")
	}
	key := cacheKey(q)
	cached, gen, ok := m.cache.get(key)
	if ok {
		m.metrics.cacheHits.Inc()
		m.metrics.searchSeconds.WithLabelValues("hit").Observe(time.Since(start).Seconds())
		return cached, nil
	}
	if m.cache.enabled() {
		m.metrics.cacheMisses.Inc()
	}

	want := m.knownSellers()
	if len(q.Sellers) > 0 {
		want = slices.DeleteFunc(want, func(s string) bool { return !slices.Contains(q.Sellers, s) })
	}
	fromSrc, toDst, missing := m.gather(ctx, q, want)
	trips := trip.Build(q, fromSrc, toDst)

	resp := &soap.GetTripsResponse{
		Alliance:       m.cfg.Alliance,
		Trips:          make([]soap.Trip, 0, len(trips)),
		Complete:       len(missing) == 0,
		MissingSellers: missing,
	}
	for _, t := range trips {
		wt := soap.Trip{Price: t.Price.String()}
		for _, f := range t.Legs {
			wt.Legs = append(wt.Legs, toLeg(f, m.cfg.Alliance))
		}
		resp.Trips = append(resp.Trips, wt)
	}
	if resp.Complete {
		m.cache.add(key, resp, gen)
	}
	m.metrics.searchSeconds.WithLabelValues("miss").Observe(time.Since(start).Seconds())
	return resp, nil
}

// tripQuery validates a getTrips request; a bad field gets a Client fault naming it.
func (m *Machine) tripQuery(req *soap.GetTripsRequest) (trip.Query, error) {
	if !flight.ValidIATA(req.Src) {
		return trip.Query{}, soap.ClientFault("Src: %q is not an IATA airport code (three upper-case letters)", req.Src)
	}
	if !flight.ValidIATA(req.Dst) {
		return trip.Query{}, soap.ClientFault("Dst: %q is not an IATA airport code (three upper-case letters)", req.Dst)
	}
	if req.Src == req.Dst {
		return trip.Query{}, soap.ClientFault("Dst: must differ from Src (%s)", req.Src)
	}
	d, err := flight.ParseDate(req.Date)
	if err != nil {
		return trip.Query{}, soap.ClientFault("Date: %q is not a date (YYYY-MM-DD)", req.Date)
	}
	var sellers []string
	for _, s := range req.Sellers {
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if !flight.ValidSeller(part) {
				return trip.Query{}, soap.ClientFault("Sellers: %q is not a seller code", part)
			}
			sellers = append(sellers, part)
		}
	}
	sort.Strings(sellers)
	sellers = slices.Compact(sellers)
	return trip.Query{Src: req.Src, Dst: req.Dst, Date: d, Sellers: sellers, MinConnection: m.cfg.MinConnection}, nil
}

func cacheKey(q trip.Query) string {
	return q.Src + "|" + q.Dst + "|" + q.Date.String() + "|" + strings.Join(q.Sellers, ",")
}

// gather collects the flights of every wanted seller, asking the holders the view names in
// order. A seller whose holder fails, or no longer has it, is asked of its next holder at once; a
// holder that has not answered within HedgeAfter (paused, cut off) gets company: the next holder
// is asked too, and the first answer for a seller wins. A seller no holder answered for is missing.
func (m *Machine) gather(ctx context.Context, q trip.Query, want []string) (fromSrc, toDst []flight.Flight, missing []string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // abandons the calls that lost a hedge

	type answer struct {
		sellers  []string
		src, dst []flight.Flight
		covered  []string
	}
	cands := map[string][]string{}
	capacity := 0
	for _, s := range want {
		cands[s] = m.view.candidates(s)
		capacity += len(cands[s])
	}
	answers := make(chan answer, capacity) // every call can answer without blocking
	next := map[string]int{}               // seller → index of its next candidate
	inflight := map[string]int{}           // seller → calls in flight that cover it
	pending := map[string]bool{}
	for _, s := range want {
		pending[s] = true
	}
	missing = []string{}
	// launch asks each seller's next candidate, grouped by machine; a seller without one left is
	// missing once nothing in flight can still cover it.
	launch := func(sellers []string) {
		byMachine := map[string][]string{}
		for _, s := range sellers {
			if next[s] < len(cands[s]) {
				machine := cands[s][next[s]]
				next[s]++
				byMachine[machine] = append(byMachine[machine], s)
				inflight[s]++
			} else if inflight[s] == 0 && pending[s] {
				delete(pending, s)
				missing = append(missing, s)
			}
		}
		for machine, group := range byMachine {
			go func() {
				src, dst, covered := m.askHolder(ctx, machine, q, group)
				answers <- answer{group, src, dst, covered}
			}()
		}
	}
	launch(want)
	hedge := time.NewTicker(m.cfg.HedgeAfter)
	defer hedge.Stop()
	for len(pending) > 0 {
		select {
		case a := <-answers:
			var retry []string
			for _, s := range a.sellers {
				inflight[s]--
				if !pending[s] {
					continue
				}
				if slices.Contains(a.covered, s) {
					delete(pending, s)
					fromSrc = appendSeller(fromSrc, a.src, s)
					toDst = appendSeller(toDst, a.dst, s)
				} else if inflight[s] == 0 {
					retry = append(retry, s)
				}
			}
			launch(retry)
		case <-hedge.C:
			var slow []string
			for _, s := range want {
				if pending[s] && next[s] < len(cands[s]) {
					slow = append(slow, s)
				}
			}
			if len(slow) > 0 {
				m.metrics.hedges.Add(float64(len(slow)))
				launch(slow)
			}
		case <-ctx.Done():
			for _, s := range want {
				if pending[s] {
					missing = append(missing, s)
				}
			}
			pending = nil
		}
	}
	sort.Strings(missing)
	return fromSrc, toDst, missing
}

// appendSeller appends the flights of one seller.
func appendSeller(dst, flights []flight.Flight, seller string) []flight.Flight {
	for _, f := range flights {
		if f.Seller == seller {
			dst = append(dst, f)
		}
	}
	return dst
}

// askHolder asks one machine for both sides of a query, for the given sellers. covered is the
// sellers it answered for on both sides; their flights are the only ones returned.
func (m *Machine) askHolder(ctx context.Context, machine string, q trip.Query, sellers []string) (src, dst []flight.Flight, covered []string) {
	if machine == m.cfg.Name {
		src, srcCovered := m.localRelevant(q.Src, q.Date, sellers, (*flight.Seller).BySrc)
		dst, dstCovered := m.localRelevant(q.Dst, q.Date, sellers, (*flight.Seller).ByDst)
		for _, s := range sellers {
			if slices.Contains(srcCovered, s) && slices.Contains(dstCovered, s) {
				covered = append(covered, s)
			}
		}
		return src, dst, covered
	}
	date := q.Date.String()
	var bySrc, byDst *soap.RelevantFlightsResponse
	var errSrc, errDst error
	base, ok := m.view.url(machine)
	if !ok {
		return nil, nil, nil
	}
	client := m.clients.get(base)
	callCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		bySrc, errSrc = client.RelevantBySrc(callCtx, soap.RelevantBySrcRequest{Src: q.Src, Date: date, Sellers: sellers})
	}()
	go func() {
		defer wg.Done()
		byDst, errDst = client.RelevantByDst(callCtx, soap.RelevantByDstRequest{Dst: q.Dst, Date: date, Sellers: sellers})
	}()
	wg.Wait()
	if errSrc != nil || errDst != nil {
		m.log.Warn("holder did not answer; asking the next holder", "holder", machine, "sellers", sellers, "err", firstErr(errSrc, errDst))
		m.metrics.holderErrors.Inc()
		return nil, nil, nil
	}
	for _, s := range sellers {
		if slices.Contains(bySrc.Sellers, s) && slices.Contains(byDst.Sellers, s) {
			covered = append(covered, s)
		}
	}
	src, err := keepSellers(bySrc.Flights, covered)
	if err != nil {
		m.log.Warn("holder sent a malformed flight", "holder", machine, "err", err)
		return nil, nil, nil
	}
	dst, err = keepSellers(byDst.Flights, covered)
	if err != nil {
		m.log.Warn("holder sent a malformed flight", "holder", machine, "err", err)
		return nil, nil, nil
	}
	return src, dst, covered
}

func keepSellers(wire []soap.Flight, sellers []string) ([]flight.Flight, error) {
	out := make([]flight.Flight, 0, len(wire))
	for _, w := range wire {
		if !slices.Contains(sellers, w.Seller) {
			continue
		}
		f, err := fromWire(w)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
