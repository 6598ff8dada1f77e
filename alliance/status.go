package alliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"flightalliance/coord/member"
	"flightalliance/soap"
)

// roundStatus is the round this machine is in, for /status.
type roundStatus struct {
	ID         int64     `json:"id"`
	Phase      string    `json:"phase"`
	Since      time.Time `json:"since"`
	LastResult string    `json:"last_result,omitempty"`
}

func (m *Machine) setPhase(id int64, phase string) {
	m.roundMu.Lock()
	defer m.roundMu.Unlock()
	if m.round.ID != id {
		m.round.Since = time.Now()
	}
	m.round.ID, m.round.Phase = id, phase
}

func (m *Machine) recordRound(out roundOutcome, took time.Duration) {
	outcome := "committed"
	switch {
	case out.Committed:
		m.metrics.roundSeconds.Observe(took.Seconds())
	case errors.Is(out.Err, errSuperseded):
		outcome = "superseded"
	default:
		outcome = "failed"
	}
	m.metrics.rounds.WithLabelValues(outcome).Inc()
	p, b := m.copies.assignment()
	m.metrics.primaries.Set(float64(len(p)))
	m.metrics.backups.Set(float64(len(b)))
	m.roundMu.Lock()
	m.round.Phase = "idle"
	m.round.LastResult = outcome
	m.roundMu.Unlock()
	if out.Committed {
		m.log.Info("round done", "round", out.ID, "took", took.Round(time.Millisecond), "fetched", out.Fetched)
	}
}

// routes serves the SOAP services, /status, /healthz and /metrics.
func (m *Machine) routes() http.Handler {
	mux := http.NewServeMux()
	// Requests carry codes, dates and a booking's two legs: the default limit (1 MiB) is plenty.
	// MaxBody bounds what this machine reads from others (seller pages, answers).
	opts := soap.HandlerOptions{Address: m.cfg.AdvertiseURL, Logger: m.log}
	mux.Handle(sellerPath, soap.NewHandler(m.sellerService(), opts))
	intraOpts := opts
	intraOpts.Tokens = m.sec.tokens
	mux.Handle(intraPath, soap.NewHandler(m.intraService(), intraOpts))
	mux.HandleFunc("GET /status", m.serveStatus)
	mux.HandleFunc("GET /healthz", m.serveHealth)
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.metrics.registry, promhttp.HandlerOpts{}))
	return mux
}

// statusDoc is the JSON of GET /status.
type statusDoc struct {
	Name     string `json:"name"`
	Alliance string `json:"alliance"`
	Zone     string `json:"zone"`
	// Replicas is K, the copies of every seller, as the alliance's settings last said (0 before
	// this machine read them).
	Replicas int          `json:"replicas"`
	URL      string       `json:"url"`
	Delegate string       `json:"delegate"`
	Acting   bool         `json:"acting_delegate"`
	Self     machineEntry `json:"self"`
	// Serving is every seller this machine has a copy of and answers for, whatever its role:
	// after a lost session (roles given up, waiting to rejoin) it still serves them.
	Serving []string `json:"serving"`
	// Session is the etcd lease (hex) this machine's entries are bound to while its session
	// lives ("" otherwise): it changes only when the machine lost its session and joined again.
	Session string         `json:"session,omitempty"`
	Joining bool           `json:"joining"`
	Leaving bool           `json:"leaving"`
	View    []machineEntry `json:"view"`
	Round   roundStatus    `json:"round"`
	Member  *member.Status `json:"member,omitempty"`
	// Removals is the last recorded removal of each etcd member name, alliance-wide: who
	// removed it, why and when (absent when this machine could not read them).
	Removals []member.Removal `json:"removals,omitempty"`
}

func (m *Machine) serveStatus(w http.ResponseWriter, r *http.Request) {
	doc := statusDoc{
		Name:     m.cfg.Name,
		Alliance: m.cfg.Alliance,
		Zone:     m.cfg.Zone,
		Replicas: int(m.replicas.Load()),
		URL:      m.cfg.AdvertiseURL,
		Delegate: m.view.delegate(),
		Acting:   m.acting.Load(),
		Self:     m.entry(),
		Serving:  []string{},
		Joining:  m.copies.isJoining(),
		Leaving:  m.leaving.Load(),
		View:     m.view.entries(),
	}
	if sess := m.session(); sess != nil && m.sessionLive() {
		doc.Session = fmt.Sprintf("%x", int64(sess.Lease()))
	}
	for _, sel := range m.copies.served(nil) {
		doc.Serving = append(doc.Serving, sel.Code())
	}
	m.roundMu.Lock()
	doc.Round = m.round
	m.roundMu.Unlock()
	if mb := m.member.Load(); mb != nil {
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		st := mb.Status(ctx)
		cancel()
		doc.Removals = m.removals(r.Context(), mb)
		doc.Member = &st
		m.metrics.quorum.Set(boolGauge(st.HasQuorum))
	}
	writeJSON(w, http.StatusOK, doc)
}

// serveHealth is GET /healthz: the machine answers (200), whether it is registered in its
// alliance now — its session is live and its view shows its entry (false before it joined,
// while its member restarts, after its session was lost) — and whether its etcd member sees a
// quorum.
func (m *Machine) serveHealth(w http.ResponseWriter, r *http.Request) {
	quorum := false
	if mb := m.member.Load(); mb != nil {
		quorum = mb.Status(r.Context()).HasQuorum
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "name": m.cfg.Name,
		"registered": m.sessionLive() && m.inView(), "quorum": quorum})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
