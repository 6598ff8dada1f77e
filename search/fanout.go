package search

import (
	"context"
	"errors"
	"fmt"
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

// fanOut asks every registered delegate at once, each with its own deadline, and returns one
// answer per registration (in the order of regs) once all have answered or timed out.
func (s *Server) fanOut(ctx context.Context, q Query, regs []Registration) []DelegateAnswer {
	start := time.Now()
	defer func() { s.metrics.fanoutSeconds.Observe(time.Since(start).Seconds()) }()

	req := soap.GetTripsRequest{Src: q.Src, Dst: q.Dst, Date: q.Date, Sellers: q.Sellers}
	out := make([]DelegateAnswer, len(regs))
	var wg sync.WaitGroup
	for i, reg := range regs {
		wg.Go(func() {
			resp, err := s.ask(ctx, reg, req)
			out[i] = DelegateAnswer{Alliance: reg.Name, Resp: resp, Err: err}
		})
	}
	wg.Wait()
	return out
}

// ask calls one delegate. The call runs in its own goroutine so that the deadline holds even if
// a Delegate does not honour its context (the SOAP client does).
func (s *Server) ask(ctx context.Context, reg Registration, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.DelegateTimeout)
	defer cancel()

	d, err := s.clients.get(reg.URI)
	if err != nil {
		s.countError(reg, reasonTransport, err)
		return nil, fmt.Errorf("delegate %s: %w", reg.URI, err)
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
		s.countError(reg, reasonTimeout, r.err)
		return nil, fmt.Errorf("delegate %s did not answer within %s", reg.URI, s.cfg.DelegateTimeout)
	case ctx.Err() != nil: // the client of the search went away: nobody reads this answer
		return nil, ctx.Err()
	case isFault(r.err):
		s.countError(reg, reasonFault, r.err)
		return nil, fmt.Errorf("delegate %s: %w", reg.URI, r.err)
	}
	s.countError(reg, reasonTransport, r.err)
	return nil, fmt.Errorf("delegate %s: %w", reg.URI, r.err)
}

func (s *Server) countError(reg Registration, reason string, err error) {
	s.metrics.delegateErrors.WithLabelValues(reg.Name, reason).Inc()
	s.log.Warn("delegate call failed", "alliance", reg.Name, "uri", reg.URI, "reason", reason, "err", err)
}
