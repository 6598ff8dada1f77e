package search

import (
	"errors"
	"net/http"
)

// handleSearch answers GET /Services/FlightsSearch/flight.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	q, err := ParseQuery(r.URL.Query())
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
			s.countError(regs[i], reasonMalformed, errors.New(st.Error))
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
