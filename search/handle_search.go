package search

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
)

// handleSearch answers GET /Services/FlightsSearch/flight.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	// r.URL.Query() silently drops malformed pairs ("servers=LY;UA" would vanish and widen the
	// search), so the raw query is parsed strictly.
	v, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("query string: %v", err))
		return
	}
	q, err := ParseQuery(v)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	regs := s.known()
	if len(regs) == 0 {
		writeError(w, http.StatusServiceUnavailable, "no alliance is registered with this search server, so nothing can be searched yet (a delegate registers within seconds of starting)")
		return
	}
	release, ok := s.admit.enter(r.Context())
	if !ok {
		s.metrics.refused.Inc()
		s.admit.refuse(w)
		return
	}
	defer release()
	answers := s.fanOut(r.Context(), q, regs)
	key, keep := "", false
	if s.conditional != nil {
		key, keep = answerKey(q, answers)
	}
	if keep {
		if b, ok := s.conditional.answers.Get(key); ok {
			s.metrics.keptAnswers.Inc()
			writeJSONBytes(w, b)
			return
		}
	}
	m := merge(q, answers)
	for i, st := range m.ans.Alliances {
		// Merge refused an answer the delegate did give: count it as malformed.
		if st.Error != "" && answers[i].Err == nil {
			s.countError(regs[i].Name, regs[i].URI, reasonMalformed, errors.New(st.Error))
			keep = false
		}
	}
	var kept func([]byte)
	if keep {
		kept = func(b []byte) { s.conditional.answers.Add(key, b) }
	}
	writeAnswer(w, &m, kept)
}

// known returns every known registration, stale ones included, and lets go of the clients of
// URIs that no fresh registration names.
func (s *Server) known() []Registration {
	regs := s.reg.All()
	s.clients.retain(slices.DeleteFunc(slices.Clone(regs), func(r Registration) bool { return r.Stale }))
	return regs
}
