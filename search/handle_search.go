package search

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
	regs := s.live()
	answers := s.fanOut(r.Context(), q, regs)
	ans := Merge(q, answers)
	for i, st := range ans.Alliances {
		// Merge refused an answer the delegate did give: count it as malformed.
		if st.Error != "" && answers[i].Err == nil {
			s.countError(regs[i].Name, regs[i].URI, reasonMalformed, errors.New(st.Error))
		}
	}
	writeJSON(w, http.StatusOK, ans)
}

// live returns the unexpired registrations and lets go of the clients of expired ones.
func (s *Server) live() []Registration {
	regs := s.reg.Live()
	s.clients.retain(regs)
	return regs
}
