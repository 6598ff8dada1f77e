package search

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"flightalliance/search/internal/rest"
)

// admission bounds the searches answered at once. A search waits for a slot at most QueueTimeout;
// one that cannot start by then is refused with 503 and Retry-After rather than queued past the
// point where its client (and the delegates' deadlines) would give up: under a load the machine
// cannot serve, the answers it does give stay fast, and the client knows to come back.
type admission struct {
	slots   chan struct{}
	timeout time.Duration
}

func newAdmission(max int, timeout time.Duration) *admission {
	return &admission{slots: make(chan struct{}, max), timeout: timeout}
}

// enter takes a slot, waiting at most the queue timeout; release gives it back. ok is false when
// none came free in time, or ctx ended first.
func (a *admission) enter(ctx context.Context) (release func(), ok bool) {
	select {
	case a.slots <- struct{}{}:
		return a.leave, true
	default:
	}
	t := time.NewTimer(a.timeout)
	defer t.Stop()
	select {
	case a.slots <- struct{}{}:
		return a.leave, true
	case <-t.C:
		return nil, false
	case <-ctx.Done():
		return nil, false
	}
}

func (a *admission) leave() { <-a.slots }

// refuse answers 503 with Retry-After: the queue timeout, in whole seconds (at least one).
func (a *admission) refuse(w http.ResponseWriter) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Max(1, math.Ceil(a.timeout.Seconds())))))
	rest.Error(w, http.StatusServiceUnavailable, fmt.Sprintf(
		"busy: %d searches are being answered and this one could not start within %s; retry after the Retry-After seconds",
		cap(a.slots), a.timeout))
}
