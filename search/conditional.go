package search

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"flightalliance/internal/budgetlru"
	"flightalliance/search/merge"
)

// Conditional searches. The search server keeps the JSON of recent complete answers with the
// ETag each alliance gave its part, and asks the alliances again with those ETags: an alliance
// whose answer did not change says NotModified and sends no trips. When every alliance says so,
// the kept JSON is the answer — a repeated search costs each alliance a short SOAP exchange and
// the search server the copy of bytes onto the wire, nothing encoded, decoded or merged again.
// When only some do, they are asked once more in full (the kept JSON cannot be cut into
// alliances). A kept answer is only ever used on every alliance's word that its part is current
// (an ETag names the list, the seats left and the page).
//
// The cache holds encoded answers up to a budget of bytes (a whole answer of 2,700 trips is
// about 900 KiB), the least recently used evicted first.
type conditional struct {
	mu      sync.Mutex                           // guards answers
	answers *budgetlru.Cache[string, keptAnswer] // query → its last complete answer, by its bytes
}

// keptAnswer is a search's encoded answer and the ETag of every alliance's part of it.
type keptAnswer struct {
	etags map[string]string // alliance → the ETag of its part
	json  []byte
}

// newConditional keeps up to budget bytes of answers; a budget ≤ 0 keeps none.
func newConditional(budget int64) *conditional {
	if budget <= 0 {
		return nil
	}
	// An answer costs the memory it holds.
	return &conditional{answers: budgetlru.New[string](budget, func(a keptAnswer) int64 { return int64(cap(a.json)) })}
}

// kept returns the answer kept for a query, if any (a nil c keeps nothing).
func (c *conditional) kept(key string) (keptAnswer, bool) {
	if c == nil {
		return keptAnswer{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answers.Get(key)
}

// keep keeps a query's answer, evicting the least recently used beyond the budget.
func (c *conditional) keep(key string, a keptAnswer) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers.Add(key, a)
}

// queryKey names a search's answer: the request every alliance is asked, and the page.
func queryKey(q Query) string {
	return requestKey(tripsRequest(q)) + fmt.Sprintf("\x00%d\x00%d", q.Limit, q.Offset)
}

// current reports whether every alliance said its part of kept is current; a NotModified
// naming an ETag other than the one asked about, or not complete (the kept part was, and a
// delegate says NotModified only to a complete one), makes that alliance's answer an error.
func current(kept keptAnswer, found bool, answers []merge.DelegateAnswer) bool {
	all := found && len(answers) == len(kept.etags)
	for i, a := range answers {
		if a.Err != nil || a.Resp == nil || !a.Resp.NotModified {
			all = false
			continue
		}
		var wrong string
		if want, ok := kept.etags[a.Alliance]; !ok || a.Resp.ETag != want {
			wrong = fmt.Sprintf("NotModified for ETag %q, not the one asked about", a.Resp.ETag)
		} else if !a.Resp.Complete || len(a.Resp.MissingSellers) > 0 {
			wrong = fmt.Sprintf("NotModified, but not complete (missing %v)", a.Resp.MissingSellers)
		}
		if wrong != "" {
			answers[i] = merge.DelegateAnswer{Alliance: a.Alliance, Err: fmt.Errorf("malformed answer: %s", wrong)}
			all = false
		}
	}
	return all
}

// toKeep is what to keep of a search's answers: every alliance's ETag when every one of them
// gave a complete answer with one; ok is false otherwise.
func toKeep(answers []merge.DelegateAnswer) (etags map[string]string, ok bool) {
	etags = make(map[string]string, len(answers))
	for _, a := range answers {
		if a.Err != nil || a.Resp == nil || !a.Resp.Complete || a.Resp.ETag == "" || a.Resp.NotModified {
			return nil, false
		}
		etags[a.Alliance] = a.Resp.ETag
	}
	return etags, true
}

// inFull asks again, without an ETag, the alliances whose answer was NotModified: the kept
// answer could not be used as a whole, and its parts cannot be cut out of it. An alliance that
// answers NotModified to a request without an ETag gets an error: an answer without trips is
// never merged as if it had none.
func (s *Server) inFull(ctx context.Context, q Query, regs []Registration, answers []merge.DelegateAnswer) {
	var wg sync.WaitGroup
	for i, a := range answers {
		if a.Err == nil && a.Resp != nil && a.Resp.NotModified {
			wg.Go(func() {
				resp, err := s.askOnce(ctx, regs[i], tripsRequest(q))
				if err == nil && resp.NotModified {
					resp, err = nil, errors.New("malformed answer: NotModified to a request without an ETag")
				}
				answers[i] = merge.DelegateAnswer{Alliance: a.Alliance, Resp: resp, Err: err}
			})
		}
	}
	wg.Wait()
}
