package search

import (
	"context"
	"sync/atomic"
)

// serveState is where Serve is: not yet serving, serving, or shutting down.
type serveState int32

const (
	notServing serveState = iota
	serving
	shuttingDown
)

// readiness is the server's serveState, for Readiness.
type readiness struct{ state atomic.Int32 }

func (r *readiness) set(s serveState) { r.state.Store(int32(s)) }

// Readiness is whether this server should be sent traffic now — an orchestrator's readiness
// probe (GET /readyz on the search command's --probe-listen): ready once Serve answers on its
// listener, its keys, trust file and TLS loaded by then; not ready before, nor once it shuts
// down (requests in flight finish, new ones should go elsewhere).
//
// It does not wait for any alliance to register, on purpose: alliances register through this
// very server, and behind a Kubernetes Service that sends traffic only to ready pods, a search
// server that waited for a registration would never get one — a deadlock. Until one registers,
// a search is answered 503 with its reason (docs/api.md), which is the truth a client should see.
func (s *Server) Readiness(context.Context) (ready bool, reason string) {
	switch serveState(s.ready.state.Load()) {
	case serving:
		return true, "serving"
	case shuttingDown:
		return false, "shutting down"
	}
	return false, "starting: not serving yet"
}
