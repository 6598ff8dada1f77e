package search

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"flightalliance/soap"
)

// Reasons a delegate call gave no answer; they label search_delegate_errors_total.
const (
	reasonTimeout   = "timeout"
	reasonFault     = "fault"
	reasonTransport = "transport"
	reasonMalformed = "malformed"
)

// fanOut asks every registered alliance at once, each within DelegateTimeout, and returns one
// answer per registration (in the order of regs) once all have answered or timed out. A stale
// alliance is not asked: its answer is the error saying since when it is silent.
func (s *Server) fanOut(ctx context.Context, q Query, regs []Registration) []DelegateAnswer {
	start := time.Now()
	defer func() { s.metrics.fanoutSeconds.Observe(time.Since(start).Seconds()) }()

	req := q.tripsRequest()
	out := make([]DelegateAnswer, len(regs))
	var wg sync.WaitGroup
	for i, reg := range regs {
		if reg.Stale {
			out[i] = DelegateAnswer{Alliance: reg.Name, Err: fmt.Errorf(
				"silent since %s: its delegate has not refreshed its registration within %s, so it was not asked",
				reg.LastSeen.UTC().Format(time.RFC3339), s.cfg.RegistrationTTL)}
			continue
		}
		wg.Go(func() {
			resp, err := s.askAlliance(ctx, reg, req)
			out[i] = DelegateAnswer{Alliance: reg.Name, Resp: resp, Err: err}
		})
	}
	wg.Wait()
	return out
}

// askAlliance asks the alliance's delegate and, in order, its alternates: the next one at once
// when the last one asked failed or answered incomplete, or when nothing has come back within
// HedgeDelay (a paused or cut-off delegate). The first complete answer wins; the others are
// abandoned. When no answer is complete, the one missing the fewest sellers is given (they
// all say what they miss); when nobody answered, every error. All of it within DelegateTimeout.
func (s *Server) askAlliance(ctx context.Context, reg Registration, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.DelegateTimeout)
	defer cancel() // abandons the calls that lost

	type result struct {
		resp *soap.GetTripsResponse
		err  error
	}
	targets := reg.targets()
	results := make(chan result, len(targets)) // every call can finish without a reader
	next, inflight := 0, 0
	launch := func() {
		if next == len(targets) {
			return
		}
		uri := targets[next]
		if next > 0 {
			s.metrics.alternateCalls.WithLabelValues(reg.Name).Inc()
		}
		next++
		inflight++
		go func() {
			resp, err := s.ask(ctx, reg.Name, uri, req)
			results <- result{resp, err}
		}()
	}
	launch()
	hedge := time.NewTimer(s.cfg.HedgeDelay)
	defer hedge.Stop()
	var best *soap.GetTripsResponse
	var errs []string
	for inflight > 0 {
		select {
		case r := <-results:
			inflight--
			switch {
			case r.err == nil && r.resp.Complete:
				return r.resp, nil
			case r.err == nil:
				if best == nil || len(r.resp.MissingSellers) < len(best.MissingSellers) {
					best = r.resp
				}
			default:
				errs = append(errs, r.err.Error())
			}
			launch()
			hedge.Reset(s.cfg.HedgeDelay)
		case <-hedge.C:
			launch()
			hedge.Reset(s.cfg.HedgeDelay)
		}
	}
	if best != nil {
		return best, nil
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, err // the client of the search went away: nobody reads this answer
	}
	return nil, errors.New(strings.Join(errs, "; "))
}

// ask calls one delegate or alternate at uri. The call runs in its own goroutine so that the
// deadline holds even if a Delegate does not honour its context (the SOAP client does).
func (s *Server) ask(ctx context.Context, alliance, uri string, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	d, err := s.clients.get(uri)
	if err != nil {
		s.countError(alliance, uri, reasonTransport, err)
		return nil, fmt.Errorf("delegate %s: %w", uri, err)
	}
	type result struct {
		resp *soap.GetTripsResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := d.GetTrips(ctx, req)
		done <- result{resp, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		r.err = ctx.Err()
	}
	if r.err == nil {
		return r.resp, nil
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		s.countError(alliance, uri, reasonTimeout, r.err)
		return nil, fmt.Errorf("delegate %s did not answer within %s", uri, s.cfg.DelegateTimeout)
	case ctx.Err() != nil: // a complete answer came from another, or the client went away
		return nil, ctx.Err()
	case isFault(r.err):
		s.countError(alliance, uri, reasonFault, r.err)
		return nil, fmt.Errorf("delegate %s: %w", uri, r.err)
	}
	s.countError(alliance, uri, reasonTransport, r.err)
	return nil, fmt.Errorf("delegate %s: %w", uri, r.err)
}

func (s *Server) countError(alliance, uri, reason string, err error) {
	s.metrics.delegateErrors.WithLabelValues(alliance, reason).Inc()
	s.log.Warn("delegate call failed", "alliance", alliance, "uri", uri, "reason", reason, "err", err)
}
