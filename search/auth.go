package search

import (
	"fmt"
	"net/http"
	"strings"

	"flightalliance/search/internal/rest"
)

// Who may register: with a trust file (Config.Trust), PUT Register and PUT Unregister need
// "Authorization: Bearer <token>" of the alliance concerned. No usable header is a 401 with
// WWW-Authenticate: Bearer; a token that is not the alliance's — or an alliance the file does
// not name — is a 403. Either way nothing changes. Tokens are never logged.

// authRealm is the realm of the WWW-Authenticate challenge.
const authRealm = `Bearer realm="flightalliance search registration"`

// bearerToken returns the token of the request's Authorization header. Without a usable one it
// answers 401 and returns ok false.
func (s *Server) bearerToken(w http.ResponseWriter, r *http.Request) (token string, ok bool) {
	vals := r.Header.Values("Authorization")
	var why string
	switch {
	case len(vals) == 0:
		why = "missing Authorization header: registrations on this search server need the alliance's token (Authorization: Bearer <token>)"
	case len(vals) > 1:
		why = fmt.Sprintf("Authorization: given %d times, expected once", len(vals))
	default:
		scheme, tok, found := strings.Cut(vals[0], " ")
		token = strings.TrimSpace(tok)
		if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
			why = "Authorization: want Bearer <token>"
		}
	}
	if why != "" {
		s.log.Info("registration refused", "route", r.URL.Path, "remote", r.RemoteAddr, "status", http.StatusUnauthorized, "why", "no bearer token")
		w.Header().Set("WWW-Authenticate", authRealm)
		rest.Error(w, http.StatusUnauthorized, why)
		return "", false
	}
	return token, true
}

// forbid answers 403 to a token that is not alliance's ("": not any trusted alliance's); it
// says nothing of the token.
func (s *Server) forbid(w http.ResponseWriter, r *http.Request, alliance string) {
	msg := fmt.Sprintf("Authorization: the token is not alliance %s's, or %s is not in this search server's trust file", alliance, alliance)
	if alliance == "" {
		msg = "Authorization: the token is not the token of any alliance in this search server's trust file"
	}
	s.log.Warn("registration refused", "route", r.URL.Path, "alliance", alliance, "remote", r.RemoteAddr,
		"status", http.StatusForbidden, "why", "the token is not the alliance's, or the alliance is not trusted")
	rest.Error(w, http.StatusForbidden, msg)
}

// callerToken is the request's bearer token when the server has a trust file ("" on an open
// server). When it returns false it has answered 401.
func (s *Server) callerToken(w http.ResponseWriter, r *http.Request) (string, bool) {
	if s.cfg.Trust == nil {
		return "", true
	}
	return s.bearerToken(w, r)
}

// authorizeAlliance lets the request act for alliance: always on an open server; with a trust
// file, only with that alliance's token. When it returns false it has answered.
func (s *Server) authorizeAlliance(w http.ResponseWriter, r *http.Request, alliance, token string) bool {
	if s.cfg.Trust == nil || s.cfg.Trust.Allows(alliance, token) {
		return true
	}
	s.forbid(w, r, alliance)
	return false
}
