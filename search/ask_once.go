package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"flightalliance/soap"
)

// askOnce asks an alliance for req, sharing the call with every concurrent search of the same
// request to the same alliance: the search server never sends one query twice to an alliance at
// once (a burst of clients asking the same route costs the alliance one answer). The call is the
// first search's, detached from its cancellation (every delegate call has its own deadline, so
// it ends); a search whose client leaves stops waiting. The answer is shared read-only: merge
// does not change a delegate's response.
func (s *Server) askOnce(ctx context.Context, reg Registration, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	// Only a call begun in the same quarter second is joined: an answer shared with a search that
	// began later is at most that much older than its own would have been (seats left change).
	key := reg.Name + "\x00" + requestKey(req) + "\x00" + strconv.FormatInt(time.Now().UnixMilli()/joinWindow, 10)
	started := false // set by the call when it is this search's (read after it ended)
	ch := s.asks.DoChan(key, func() (_ any, err error) {
		started = true
		defer func() { // DoChan re-panics where nothing recovers it: the server would go down
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error asking alliance %s: %v", reg.Name, p)
			}
		}()
		return s.askAlliance(context.WithoutCancel(ctx), reg, req)
	})
	select {
	case r := <-ch:
		if !started { // r.Shared is true for the search that made the call too
			s.metrics.sharedCalls.WithLabelValues(reg.Name).Inc()
		}
		resp, _ := r.Val.(*soap.GetTripsResponse)
		return resp, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// joinWindow is how recent, in milliseconds, a call must be for a search to share it.
const joinWindow = 250

// requestKey is req in a canonical form: equal requests, equal keys.
func requestKey(req soap.GetTripsRequest) string {
	return strings.Join([]string{req.Src, req.Dst, req.Date, strings.Join(req.Sellers, ","),
		strconv.Itoa(req.MaxTrips), strconv.FormatBool(req.Nonstop), req.MaxPrice, req.Sort, req.IfNoneMatch,
		strconv.FormatBool(req.ShareLegs)}, "\x00")
}
