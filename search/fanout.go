package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"flightalliance/hedge"
	"flightalliance/search/internal/delegatecall"
	"flightalliance/search/merge"
	"flightalliance/soap"
)

// fanOut asks every registered alliance at once, each within DelegateTimeout, and returns one
// answer per registration (in the order of regs) once all have answered or timed out. A stale
// alliance is not asked: its answer is the error saying since when it is silent. An alliance
// with an ETag in etags is asked with it (IfNoneMatch), and may answer NotModified.
func (s *Server) fanOut(ctx context.Context, q Query, regs []Registration, etags map[string]string) []merge.DelegateAnswer {
	start := time.Now()
	defer func() { s.metrics.fanoutSeconds.Observe(time.Since(start).Seconds()) }()

	req := tripsRequest(q)
	out := make([]merge.DelegateAnswer, len(regs))
	var wg sync.WaitGroup
	for i, reg := range regs {
		if reg.Stale {
			out[i] = merge.DelegateAnswer{Alliance: reg.Name, Err: fmt.Errorf(
				"silent since %s: its delegate has not refreshed its registration within %s, so it was not asked",
				reg.LastSeen.UTC().Format(time.RFC3339), s.cfg.RegistrationTTL)}
			continue
		}
		wg.Go(func() {
			req := req
			req.IfNoneMatch = etags[reg.Name]
			resp, err := s.askOnce(ctx, reg, req)
			out[i] = merge.DelegateAnswer{Alliance: reg.Name, Resp: resp, Err: err}
		})
	}
	wg.Wait()
	return out
}

// askAlliance asks the alliance's delegate and, in order, its alternates, as a hedge.Gather of
// one key (the alliance) whose candidates are its targets and which a complete answer covers: the
// next target is asked at once when the last one asked failed or answered incomplete, and on every
// HedgeDelay while nothing complete has come back (a paused or cut-off delegate). The first
// complete answer wins; the others are abandoned. When no answer is complete, the one missing the
// fewest sellers is given (they all say what they miss); when nobody answered, every error.
//
// The deadline, DelegateTimeout from now, is on each call rather than on the gather: ask honours
// it even if a Delegate does not, so the gather still ends by then, and every call that timed out
// comes back as a reply naming its target (and counted) instead of being cut off unseen. The
// gather itself ends early only when the client went away.
func (s *Server) askAlliance(ctx context.Context, reg Registration, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	deadline := time.Now().Add(s.cfg.DelegateTimeout)
	targets := reg.Targets()
	ask := func(ctx context.Context, uri string, keys []string) (delegateReply, []string) {
		if uri != targets[0] {
			s.metrics.alternateCalls.WithLabelValues(reg.Name).Inc()
		}
		ctx, cancel := context.WithDeadline(ctx, deadline)
		defer cancel()
		resp, err := s.ask(ctx, reg.Name, uri, req)
		if err == nil && resp.Alliance != "" && resp.Alliance != reg.Name {
			// Another alliance's machine at an address this one registered (an alternate's port
			// taken since): its trips are not this alliance's.
			err = fmt.Errorf("malformed answer from %s: alliance %q, not %q", uri, resp.Alliance, reg.Name)
			s.countError(reg.Name, uri, delegatecall.Malformed, err)
			resp = nil
		}
		if err == nil && resp.Complete {
			return delegateReply{resp, nil}, keys
		}
		return delegateReply{resp, err}, nil
	}
	r := allianceReplies{line: reg.Line()}
	class := "page" // pages and whole lists differ in size a hundredfold: their latencies are learnt apart
	if req.MaxTrips == 0 {
		class = "whole"
	}
	g := hedge.New([]string{reg.Name}, map[string][]string{reg.Name: targets}, ask).Class(class).
		Skip(func(uri string) bool { return !reg.FallbackUsable(uri, r.lineAnswered) }).
		Heard(delegateReply.heard)
	o := g.Hedge(ctx, s.hedge, r.see)
	for _, c := range []struct {
		counter *prometheus.CounterVec
		n       int
	}{{s.metrics.delegateCalls, o.Calls}, {s.metrics.hedgesSent, o.HedgeCalls},
		{s.metrics.hedgesWon, o.HedgesWon}, {s.metrics.hedgesRefused, o.HedgesRefused}} {
		c.counter.WithLabelValues(reg.Name).Add(float64(c.n))
	}
	return r.answer(ctx.Err())
}

// delegateReply is what one target of an alliance answered: a response (complete or not) or an
// error.
type delegateReply struct {
	resp *soap.GetTripsResponse
	err  error
}

// heard says whether the target answered at all — trips, or a fault — as against a timeout, a
// transport error or another alliance's answer: only an answer shows the hedge policy that the
// target is alive.
func (r delegateReply) heard() bool { return r.resp != nil || delegatecall.IsFault(r.err) }

// allianceReplies decides an alliance's answer from the replies of its targets, seen in the order
// they came back: the complete one that won; else the incomplete one missing the fewest sellers
// (the earliest of those); else every error. It also tells whether a machine of the line (the
// delegate and alternates) has answered, which ends the fallbacks' turn (FallbackUsable).
type allianceReplies struct {
	line         []string
	lineAnswered bool
	complete     *soap.GetTripsResponse
	best         *soap.GetTripsResponse
	errs         []string
}

// see takes one reply; a complete one wins the gather (and ends it), so it is the only one seen.
func (r *allianceReplies) see(a hedge.Answer[delegateReply]) {
	if a.Value.heard() && slices.Contains(r.line, a.Target) {
		r.lineAnswered = true
	}
	switch reply := a.Value; {
	case len(a.Won) > 0:
		r.complete = reply.resp
	case reply.err != nil:
		r.errs = append(r.errs, reply.err.Error())
	case r.best == nil || len(reply.resp.MissingSellers) < len(r.best.MissingSellers):
		r.best = reply.resp
	}
}

// answer is the alliance's answer once the gather is over; ctxErr is the error of the search's
// context.
func (r *allianceReplies) answer(ctxErr error) (*soap.GetTripsResponse, error) {
	switch {
	case r.complete != nil:
		return r.complete, nil
	case r.best != nil:
		return r.best, nil
	case ctxErr != nil:
		return nil, ctxErr // the client of the search went away: nobody reads this answer
	}
	return nil, errors.New(strings.Join(r.errs, "; "))
}

// ask calls one delegate or alternate at uri. The call runs in its own goroutine so that the
// deadline holds even if a Delegate does not honour its context (the SOAP client does).
func (s *Server) ask(ctx context.Context, alliance, uri string, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	d, err := s.clients.get(uri)
	if err != nil {
		s.countError(alliance, uri, delegatecall.Transport, err)
		return nil, fmt.Errorf("delegate %s: %w", uri, err)
	}
	type result struct {
		resp *soap.GetTripsResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { // a Delegate's panic (its decoding of a bad answer, say) fails this call only
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("malformed answer: the call panicked: %v", p)}
			}
		}()
		resp, err := d.GetTrips(ctx, req)
		if err == nil && resp == nil {
			err = errors.New("malformed answer: no response")
		}
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
		s.countError(alliance, uri, delegatecall.Timeout, r.err)
		return nil, fmt.Errorf("delegate %s did not answer within %s", uri, s.cfg.DelegateTimeout)
	case ctx.Err() != nil: // a complete answer came from another, or the client went away
		return nil, ctx.Err()
	case delegatecall.IsFault(r.err):
		s.countError(alliance, uri, delegatecall.Fault, r.err)
		return nil, fmt.Errorf("delegate %s: %w", uri, r.err)
	}
	s.countError(alliance, uri, delegatecall.Transport, r.err)
	return nil, fmt.Errorf("delegate %s: %w", uri, r.err)
}

func (s *Server) countError(alliance, uri, reason string, err error) {
	s.metrics.delegateErrors.WithLabelValues(alliance, reason).Inc()
	s.log.Warn("delegate call failed", "alliance", alliance, "uri", uri, "reason", reason, "err", err)
}
