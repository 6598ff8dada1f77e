package search

import (
	"context"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"flightalliance/soap"
)

// Conditional searches. The search server keeps the last complete answer of each alliance to
// each request (copies) and asks again with its ETag: an alliance whose answer did not change
// says NotModified and sends no trips, and the kept answer is used. When every alliance's answer
// is a kept one, the merged JSON answer is too (encoded): a repeated search then costs each
// alliance a short SOAP exchange and the search server the copy of bytes onto the wire — no
// answer encoded, decoded, merged or encoded again. A kept answer is only ever used on the
// alliance's word that it is current (its ETag names the list, the seats left and the page).
type conditional struct {
	copies  *lru.Cache[string, *soap.GetTripsResponse] // alliance + request → its last complete answer
	answers *lru.Cache[string, []byte]                 // query + every alliance's ETag → the answer's JSON
}

// newConditional keeps size answers of each kind; 0 keeps none (every search asks in full).
func newConditional(size int) (*conditional, error) {
	if size == 0 {
		return nil, nil
	}
	copies, err := lru.New[string, *soap.GetTripsResponse](size)
	if err != nil {
		return nil, err
	}
	answers, err := lru.New[string, []byte](size)
	if err != nil {
		return nil, err
	}
	return &conditional{copies: copies, answers: answers}, nil
}

// askConditional asks an alliance for req with the ETag of the answer kept for it, if any, and
// returns the kept answer when the alliance says it is current; a new complete answer with an
// ETag is kept instead.
func (s *Server) askConditional(ctx context.Context, reg Registration, req soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	c := s.conditional
	if c == nil {
		return s.askAlliance(ctx, reg, req)
	}
	key := reg.Name + "\x00" + requestKey(req)
	kept, ok := c.copies.Get(key)
	if ok {
		req.IfNoneMatch = kept.ETag
	}
	resp, err := s.askAlliance(ctx, reg, req)
	switch {
	case err != nil:
		return nil, err
	case resp.NotModified && ok && resp.ETag == kept.ETag:
		s.metrics.notModified.WithLabelValues(reg.Name).Inc()
		return kept, nil
	case resp.NotModified:
		c.copies.Remove(key)
		s.countError(reg.Name, reg.URI, reasonMalformed, fmt.Errorf("NotModified for ETag %q, not the one asked about", resp.ETag))
		return nil, fmt.Errorf("malformed answer: NotModified for ETag %q, not the one asked about", resp.ETag)
	case resp.Complete && resp.ETag != "":
		c.copies.Add(key, resp)
	}
	return resp, nil
}

// answerKey names the merged answer to q made of answers, when every one of them is a complete
// answer with an ETag (only those can be told current again); ok is false otherwise.
func answerKey(q Query, answers []DelegateAnswer) (key string, ok bool) {
	key = requestKey(q.tripsRequest()) + fmt.Sprintf("\x00%d\x00%d", q.Limit, q.Offset)
	for _, a := range answers {
		if a.Err != nil || a.Resp == nil || !a.Resp.Complete || a.Resp.ETag == "" {
			return "", false
		}
		key += "\x00" + a.Alliance + "\x00" + a.Resp.ETag
	}
	return key, true
}
