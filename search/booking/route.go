package booking

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"time"

	"flightalliance/search/internal/delegatecall"
	"flightalliance/search/registry"
	"flightalliance/soap"
)

// bookingOp is one kind of booking request: its label on search_booking_requests_total and what
// a client should do when no machine of the alliance answered.
type bookingOp struct {
	name   string
	advice string
}

var (
	opReserve = bookingOp{"reserve", "the booking may or may not have been made: retry with the same Idempotency-Key, which never books twice"}
	opGet     = bookingOp{"get", "retry later"}
	opCancel  = bookingOp{"cancel", "retry: cancelling again is safe"}
	opConfirm = bookingOp{"confirm", "retry: confirming again is safe"}
	opSeats   = bookingOp{"seats", "retry later"}
)

// bookingFailure is why a booking request got no answer from its alliance: the HTTP status to
// answer with, and the message.
type bookingFailure struct {
	status int
	msg    string
}

// registration returns the registration of alliance name, stale or not: a stale delegate is
// still asked for bookings, since it may well answer (only searches skip it).
func (h *Handlers) registration(name string) (registry.Registration, bool) {
	for _, reg := range h.cfg.Registrations() {
		if reg.Name == name {
			return reg, true
		}
	}
	return registry.Registration{}, false
}

// onAlliance runs call on the alliance's machines one after the other — its delegate, then its
// alternates, then its fallbacks while none of those answered (FallbackUsable) — until one
// answers or refuses. The next machine is asked when the last one failed in a way that says
// nothing about the request (a Server fault without a kind, a transport error, no answer
// within Config.CallTimeout), or could not reach a quorum (unavailable: nothing changed;
// outcome unknown: the next machine, running the same request with the same key, settles it) —
// a machine cut off from the others must not stop a booking the rest of the alliance can take.
// The idempotency key makes that safe for a reserve, and cancel and confirm are idempotent. When
// a machine may have run the request without saying whether it did, the answer says the outcome
// is unknown, whatever the machines after it said (an "unavailable" speaks for its own machine).
// Everything within Config.Timeout. Sequential, never hedged: two machines working on one
// booking at once would only contend.
func onAlliance[T any](h *Handlers, ctx context.Context, op bookingOp, reg registry.Registration,
	call func(context.Context, Booker) (T, error)) (T, *bookingFailure) {
	var zero T
	ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
	defer cancel()
	var errs []string
	var unavailable, unknown *bookingFailure // the last "unavailable" and "outcome unknown" answers
	// ambiguous: some machine may have run the request without saying whether it did (no answer
	// in time, a connection lost after the request went out, a Server fault without a kind). A
	// later machine's "unavailable" then says nothing about the earlier one's doing.
	ambiguous := false
	targets := reg.Targets()
	lineAnswered := false // a machine of the line answered: the fallbacks are not asked (FallbackUsable)
	passed := 0           // fallbacks passed over for that
	for i, uri := range targets {
		if ctx.Err() != nil {
			break
		}
		if !reg.FallbackUsable(uri, lineAnswered) {
			passed++
			continue
		}
		if i > 0 {
			h.cfg.AlternateCalled(reg.Name)
		}
		d, err := h.cfg.Machine(uri)
		if err != nil {
			h.cfg.CallFailed(reg.Name, uri, delegatecall.Transport, err)
			errs = append(errs, fmt.Sprintf("%s: %v", uri, err))
			continue
		}
		b, ok := d.(Booker)
		if !ok {
			return zero, &bookingFailure{http.StatusServiceUnavailable,
				fmt.Sprintf("alliance %s cannot take bookings through this server (its delegate's client has no booking operations)", reg.Name)}
		}
		v, err := attempt(ctx, h.cfg.CallTimeout, b, call)
		if soap.FaultKind(err) == soap.KindOtherAlliance {
			// Another alliance's machine at an address this one registered (an alternate's or
			// a fallback's port taken since): it did nothing, and its refusal is not this
			// alliance's answer — a booking an earlier machine may have made is not "not found".
			err = fmt.Errorf("malformed answer from %s: not a machine of alliance %s: %w", uri, reg.Name, err)
			h.cfg.CallFailed(reg.Name, uri, delegatecall.Malformed, err)
			errs = append(errs, err.Error())
			continue
		}
		lineAnswered = lineAnswered || (err == nil || delegatecall.IsFault(err)) && i < len(reg.Line())
		if err == nil {
			return v, nil
		}
		if f := h.refusal(reg.Name, op, err); f != nil {
			switch soap.FaultKind(err) {
			case soap.KindUnavailable:
				unavailable = f
			case soap.KindUnknown:
				unknown = f
			default:
				return zero, f
			}
			h.cfg.CallFailed(reg.Name, uri, delegatecall.Fault, err)
			errs = append(errs, fmt.Sprintf("%s: %v", uri, err))
			continue
		}
		ambiguous = ambiguous || !errors.Is(err, syscall.ECONNREFUSED)
		reason := delegatecall.Transport
		switch {
		case delegatecall.IsFault(err):
			reason = delegatecall.Fault
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil:
			reason = delegatecall.Timeout
			err = fmt.Errorf("no answer before the booking deadline (%s)", h.cfg.Timeout)
		case errors.Is(err, context.DeadlineExceeded):
			reason = delegatecall.Timeout
			err = fmt.Errorf("no answer within %s", h.cfg.CallTimeout)
		}
		h.cfg.CallFailed(reg.Name, uri, reason, err)
		errs = append(errs, fmt.Sprintf("%s: %v", uri, err))
	}
	switch {
	case unknown != nil:
		return zero, unknown
	case unavailable != nil && ambiguous:
		return zero, &bookingFailure{http.StatusServiceUnavailable, fmt.Sprintf(
			"alliance %s cannot take bookings now: %s; but an earlier machine gave no answer, so the outcome is unknown: %s",
			reg.Name, strings.Join(errs, "; "), op.advice)}
	case unavailable != nil:
		return zero, unavailable
	}
	what := fmt.Sprintf("no machine of alliance %s answered (%d asked)", reg.Name, len(errs))
	if len(errs) < len(targets)-passed {
		what = fmt.Sprintf("alliance %s did not answer within %s (%d of its %d machines asked)", reg.Name, h.cfg.Timeout, len(errs), len(targets)-passed)
	}
	last := "none"
	if len(errs) > 0 {
		last = errs[len(errs)-1]
	}
	return zero, &bookingFailure{http.StatusServiceUnavailable, fmt.Sprintf("%s; last error: %s; %s", what, last, op.advice)}
}

// attempt is one call to one machine, bounded by timeout. The call runs in a goroutine of its
// own so that the bound holds even if a Booker does not honour its context (the SOAP client
// does). An answer or a fault that arrives with the deadline still counts.
func attempt[T any](ctx context.Context, timeout time.Duration, b Booker, call func(context.Context, Booker) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := call(ctx, b)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if r.err != nil && !delegatecall.IsFault(r.err) && ctx.Err() != nil {
			r.err = fmt.Errorf("%w: %v", ctx.Err(), r.err)
		}
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// refusal is the answer to a machine's error that no other machine would change: a fault with a
// kind, or a Client fault (bad input, its faultstring naming the field). It is nil for the errors
// worth asking the next machine about.
func (h *Handlers) refusal(alliance string, op bookingOp, err error) *bookingFailure {
	f, ok := errors.AsType[*soap.Fault](err)
	if !ok {
		return nil
	}
	switch f.Detail {
	case soap.KindNotFound:
		return &bookingFailure{http.StatusNotFound, f.String}
	case soap.KindConflict:
		return &bookingFailure{http.StatusConflict, f.String}
	case soap.KindKeyReused:
		return &bookingFailure{http.StatusUnprocessableEntity, f.String}
	case soap.KindUnavailable:
		return &bookingFailure{http.StatusServiceUnavailable,
			fmt.Sprintf("alliance %s cannot take bookings now: %s; nothing was changed: retry later", alliance, f.String)}
	case soap.KindUnknown:
		msg := fmt.Sprintf("alliance %s: %s", alliance, f.String)
		if !strings.Contains(f.String, KeyHeader) {
			msg += "; the outcome is unknown: " + op.advice
		}
		return &bookingFailure{http.StatusServiceUnavailable, msg}
	}
	if f.Code == soap.CodeClient {
		return &bookingFailure{http.StatusBadRequest, f.String}
	}
	return nil
}
