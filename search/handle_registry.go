package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"flightalliance/search/internal/rest"
	"flightalliance/search/registry"

	"github.com/go-chi/chi/v5"
)

// maxURILen bounds a registered URI.
const maxURILen = 2048

// RegisterBody is the JSON body of PUT /Services/FlightsSearchReg/Register/{clustername}.
type RegisterBody struct {
	URI        string   `json:"uri"`
	Alternates []string `json:"alternates,omitempty"`
}

// maxAlternates bounds the alternates of one registration.
const maxAlternates = 8

// RegistrationList is the JSON body of GET /Services/FlightsSearchReg/.
type RegistrationList struct {
	TTLSeconds    float64        `json:"ttl_seconds"`
	Registrations []Registration `json:"registrations"`
}

// UnregisterResult is the JSON body answering PUT /Services/FlightsSearchReg/Unregister.
type UnregisterResult struct {
	Removed []Registration `json:"removed"`
}

// handleRegister answers PUT /Services/FlightsSearchReg/Register/{clustername}: it adds,
// refreshes or replaces the one delegate of that alliance. With a trust file it needs the
// alliance's token (see auth.go), checked before the body is read.
func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	token, ok := s.callerToken(w, r)
	if !ok {
		return
	}
	name := chi.URLParam(r, "clustername")
	if err := ValidateClusterName(name); err != nil {
		rest.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	if !s.authorizeAlliance(w, r, name, token) {
		return
	}
	if r.URL.RawQuery != "" {
		rest.Error(w, http.StatusBadRequest, "Register takes no query parameters")
		return
	}
	body, err := decodeRegisterBody(r.Body)
	if err != nil {
		status := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			status = http.StatusRequestEntityTooLarge
		}
		rest.Error(w, status, err.Error())
		return
	}
	reg, replaced := s.reg.Register(name, body.URI, body.Alternates...)
	if replaced != "" {
		s.log.Info("delegate replaced", "alliance", name, "uri", body.URI, "alternates", body.Alternates, "old_uri", replaced)
	} else if reg.RegisteredAt.Equal(reg.LastSeen) {
		s.log.Info("delegate registered", "alliance", name, "uri", body.URI, "alternates", body.Alternates)
	}
	s.known() // lets go of the clients of URIs no longer registered
	rest.JSON(w, http.StatusOK, reg)
}

// ValidateClusterName checks an alliance name as the search server accepts it.
func ValidateClusterName(name string) error {
	if !registry.ValidName(name) {
		return rest.InputErr("clustername", "%q is not a cluster name (1 to 64 letters, digits, '_' or '-')", rest.Clip(name))
	}
	return nil
}

func decodeRegisterBody(body io.Reader) (RegisterBody, error) {
	var b RegisterBody
	var read bytes.Buffer // what the decoder read, for rest.CheckKeys
	dec := json.NewDecoder(io.TeeReader(body, &read))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return b, fmt.Errorf("body: larger than %d bytes: %w", mbe.Limit, err)
		}
		return b, rest.InputErr("body", "not a JSON object {\"uri\": \"http://host:port/Services/SellerService\", \"alternates\": [...]}: %v", err)
	}
	if rest.Trailing(dec) {
		return b, rest.InputErr("body", "unexpected data after the JSON object")
	}
	if err := rest.CheckKeys(read.Bytes(), func(key string) string { return key }); err != nil {
		return b, err
	}
	if err := ValidateDelegateURI(b.URI); err != nil {
		return b, err
	}
	if len(b.Alternates) > maxAlternates {
		return b, rest.InputErr("alternates", "%d given, at most %d", len(b.Alternates), maxAlternates)
	}
	seen := map[string]bool{b.URI: true}
	for i, alt := range b.Alternates {
		field := fmt.Sprintf("alternates[%d]", i)
		if err := validateURI(field, alt); err != nil {
			return b, err
		}
		if seen[alt] {
			return b, rest.InputErr(field, "%q is given twice (the uri and every alternate must differ)", rest.Clip(alt))
		}
		seen[alt] = true
	}
	return b, nil
}

// ValidateDelegateURI checks a delegate's SellerService URL: absolute, http or https, with a host.
func ValidateDelegateURI(uri string) error { return validateURI("uri", uri) }

// validateURI checks a SellerService URL given as the named field.
func validateURI(field, uri string) error {
	if uri == "" {
		return rest.InputErr(field, "missing (a SellerService URL)")
	}
	if len(uri) > maxURILen {
		return rest.InputErr(field, "%d bytes long, at most %d", len(uri), maxURILen)
	}
	u, err := url.Parse(uri)
	if err != nil {
		return rest.InputErr(field, "%q is not a URL: %v", rest.Clip(uri), err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return rest.InputErr(field, "%q is not an absolute http(s) URL", rest.Clip(uri))
	}
	if u.User != nil || u.Fragment != "" {
		return rest.InputErr(field, "%q must not carry user info or a fragment", rest.Clip(uri))
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return rest.InputErr(field, "%q: port %s is not between 1 and 65535", rest.Clip(uri), rest.Clip(p))
		}
	}
	return nil
}

// handleUnregister answers PUT /Services/FlightsSearchReg/Unregister: without parameters it
// removes the registrations whose URI host is the caller's address; ?cluster=NAME removes that
// alliance's. Removing nothing is not an error (the PUT is idempotent).
//
// With a trust file it needs a token: ?cluster=NAME only NAME's; without ?cluster= any trusted
// alliance's token, and then only the registrations of the alliances whose token it is (usually
// one) and whose URI host is the caller's address are removed: a token never removes another
// alliance's registration, wherever the caller is.
func (s *Server) handleUnregister(w http.ResponseWriter, r *http.Request) {
	token, ok := s.callerToken(w, r)
	if !ok {
		return
	}
	q, err := rest.ParseRawQuery(r.URL.RawQuery)
	if err != nil {
		rest.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	for _, name := range slices.Sorted(maps.Keys(q)) {
		vals := q[name]
		if name != "cluster" {
			rest.Error(w, http.StatusBadRequest, rest.InputErr(name, "unknown parameter (expected cluster)").Error())
			return
		}
		if len(vals) > 1 {
			rest.Error(w, http.StatusBadRequest, rest.InputErr(name, "given %d times, expected once", len(vals)).Error())
			return
		}
	}
	res := UnregisterResult{Removed: []Registration{}}
	if vals, ok := q["cluster"]; ok {
		if !registry.ValidName(vals[0]) {
			rest.Error(w, http.StatusBadRequest, rest.InputErr("cluster", "%q is not a cluster name (1 to 64 letters, digits, '_' or '-')", rest.Clip(vals[0])).Error())
			return
		}
		if !s.authorizeAlliance(w, r, vals[0], token) {
			return
		}
		if reg, ok := s.reg.Remove(vals[0]); ok {
			res.Removed = append(res.Removed, reg)
		}
	} else {
		ip, err := callerIP(r)
		if err != nil {
			rest.Error(w, http.StatusBadRequest, err.Error())
			return
		}
		var mine func(string) bool // nil: every alliance's
		if s.cfg.Trust != nil {
			set := s.cfg.Trust.AlliancesOf(token)
			if len(set) == 0 {
				s.forbid(w, r, "")
				return
			}
			mine = func(name string) bool { return set[name] }
		}
		res.Removed = append(res.Removed, s.reg.RemoveByHostIf(ip, mine)...)
	}
	for _, reg := range res.Removed {
		s.log.Info("delegate unregistered", "alliance", reg.Name, "uri", reg.URI, "by", r.RemoteAddr)
	}
	s.known()
	rest.JSON(w, http.StatusOK, res)
}

func callerIP(r *http.Request) (net.IP, error) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return nil, fmt.Errorf("caller address %q is not an IP address; unregister with ?cluster=NAME", rest.Clip(r.RemoteAddr))
	}
	return ip, nil
}

// handleList answers GET /Services/FlightsSearchReg/.
func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	rest.JSON(w, http.StatusOK, RegistrationList{
		TTLSeconds:    s.cfg.RegistrationTTL.Seconds(),
		Registrations: s.known(),
	})
}
