package search

import (
	"errors"
	"net/http"
	"slices"

	"flightalliance/search/internal/delegatecall"
	"flightalliance/search/internal/rest"
	"flightalliance/search/merge"
)

// handleSearch answers GET /Services/FlightsSearch/flight.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	// r.URL.Query() silently drops malformed pairs ("servers=LY;UA" would vanish and widen the
	// search), so the raw query is parsed strictly (rest.ParseRawQuery: the error names the pair's
	// parameter).
	v, err := rest.ParseRawQuery(r.URL.RawQuery)
	if err != nil {
		rest.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	q, err := ParseQuery(v)
	if err != nil {
		rest.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	regs := s.known()
	if len(regs) == 0 {
		rest.Error(w, http.StatusServiceUnavailable, "no alliance is registered with this search server, so nothing can be searched yet (a delegate registers within seconds of starting)")
		return
	}
	release, ok := s.admit.enter(r.Context())
	if !ok {
		s.metrics.refused.Inc()
		s.admit.refuse(w)
		return
	}
	defer release()
	defer s.turns.enter(r.Context())()
	key := queryKey(q)
	kept, found := s.conditional.kept(key)
	answers := s.fanOut(r.Context(), q, regs, kept.etags)
	for _, a := range answers {
		if a.Err == nil && a.Resp != nil && a.Resp.NotModified {
			s.metrics.notModified.WithLabelValues(a.Alliance).Inc()
		}
	}
	if current(kept, found, answers) {
		s.metrics.keptAnswers.Inc()
		writeJSONBytes(w, kept.json)
		return
	}
	s.inFull(r.Context(), q, regs, answers)
	etags, keep := toKeep(answers)
	m := merge.MergeWindow(q, answers)
	for i, st := range m.Answer.Alliances {
		// Merge refused an answer the delegate did give: count it as malformed.
		if st.Error != "" && answers[i].Err == nil {
			s.countError(regs[i].Name, regs[i].URI, delegatecall.Malformed, errors.New(st.Error))
			keep = false
		}
	}
	var keepJSON func([]byte)
	if keep && s.conditional != nil { // nil: --answer-cache 0 keeps nothing (the buffer is pooled)
		keepJSON = func(b []byte) { s.conditional.keep(key, keptAnswer{etags: etags, json: b}) }
	}
	writeAnswer(w, &m, keepJSON)
}

// known returns every known registration, stale ones included, and lets go of the clients of
// URIs that no fresh registration names.
func (s *Server) known() []Registration {
	regs := s.reg.All()
	s.clients.retain(slices.DeleteFunc(slices.Clone(regs), func(r Registration) bool { return r.Stale }))
	return regs
}
