// Package probe serves a server's liveness and readiness probes — GET /livez and GET /readyz,
// nothing else — on a plain-HTTP listener of their own (--probe-listen).
//
// Why a listener of their own rather than two paths exempt from authentication on the main one:
// under --tls-ca an airline server's listener demands a client certificate in the TLS handshake,
// before any path is known, and kubelet, Docker and load-balancer probes cannot present one. A
// listener apart keeps the whole API authenticated and exposes nothing but two booleans (and
// the reason a server is not ready).
//
// Answers:
//   - GET /livez: 200 "ok" while the process serves HTTP.
//   - GET /readyz: 200 {"ready":true,"reason":"..."} while the server's Readiness says so, else
//     503 {"ready":false,"reason":"..."}, the reason one line.
//   - HEAD is answered as GET without a body; any other method or path: 404.
//
// The package knows nothing of the servers: each gives its own Readiness.
package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// FlagHelp is the help of both servers' --probe-listen.
const FlagHelp = "host:port of a plain-HTTP listener that serves only GET /livez (200 while the process serves) and GET /readyz " +
	"(200 when ready, else 503 and the reason), for orchestrators' probes; off by default. A listener of its own because " +
	"under --tls-ca the main one demands a client certificate in the TLS handshake, before any path is known, and " +
	"kubelet, Docker and load-balancer probes cannot present one: the API stays authenticated, and this one tells two booleans"

// CheckAddr refuses a --probe-listen that is not host:port, or that is the address of another
// of the server's listeners (others: each flag and its address), which could then not be bound.
// Port 0, any free port, clashes with nothing.
func CheckAddr(addr string, others ...[2]string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--probe-listen: %q is not host:port: %v", addr, err)
	}
	for _, other := range others {
		if port != "0" && addr == other[1] {
			return fmt.Errorf("--probe-listen: %s is also %s: the probes need a listener of their own", addr, other[0])
		}
	}
	return nil
}

// Readiness says whether the server is ready for traffic and, in one line, why or why not.
type Readiness func(ctx context.Context) (ready bool, reason string)

// checkTimeout bounds one readiness check: a probe that waits longer has failed anyway.
const checkTimeout = 2 * time.Second

// Answer is the JSON of GET /readyz.
type Answer struct {
	Ready  bool   `json:"ready"`
	Reason string `json:"reason"`
}

// Handler answers /livez and /readyz, and 404 to anything else.
func Handler(ready Readiness) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.NotFound(w, r)
			return
		}
		switch r.URL.Path {
		case "/livez":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprintln(w, "ok")
		case "/readyz":
			ctx, cancel := context.WithTimeout(r.Context(), checkTimeout)
			defer cancel()
			ok, reason := ready(ctx)
			code := http.StatusOK
			if !ok {
				code = http.StatusServiceUnavailable
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_ = json.NewEncoder(w).Encode(Answer{Ready: ok, Reason: reason})
		default:
			http.NotFound(w, r)
		}
	})
}

// Server is the probe listener, serving until Close.
type Server struct {
	srv  *http.Server
	done chan struct{}
	addr net.Addr
}

// Listen binds addr (host:port) and serves the probes on it with ready. The log says where.
func Listen(addr string, ready Readiness, log *slog.Logger) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		srv: &http.Server{
			Handler:           Handler(ready),
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       5 * time.Second,
			WriteTimeout:      checkTimeout + 5*time.Second,
			IdleTimeout:       time.Minute,
			MaxHeaderBytes:    8 << 10,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		},
		done: make(chan struct{}),
		addr: l.Addr(),
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(l); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the probe listener stopped", "flag", "--probe-listen", "addr", l.Addr().String(), "err", err)
		}
	}()
	log.Info("probes listening (GET /livez, /readyz; plain HTTP)", "addr", l.Addr().String())
	return s, nil
}

// Addr is where the probes are served.
func (s *Server) Addr() net.Addr { return s.addr }

// Close stops the listener, lets the probes in flight finish (a second at most) and returns
// once it serves no more.
func (s *Server) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if s.srv.Shutdown(ctx) != nil {
		s.srv.Close()
	}
	<-s.done
}
