// Package profiling serves Go's runtime profiles (net/http/pprof: CPU, heap, allocations,
// goroutines, mutex and block contention, execution traces) on an address of their own, apart
// from a server's API: an operator profiles a busy machine with `go tool pprof
// http://ADDR/debug/pprof/profile?seconds=30` without the profiles being reachable by the
// API's clients. Off unless asked for; bind it to a loopback or management address.
package profiling

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"
)

// Start serves the profiles on addr until stop is called; stop waits for the server to end.
func Start(addr string, log *slog.Logger) (stop func(), err error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index) // and every named profile: heap, allocs, goroutine…
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
			log.Error("the profiling server stopped", "addr", addr, "err", err)
		}
	})
	log.Info("serving runtime profiles", "addr", l.Addr().String(), "path", "/debug/pprof/")
	return func() { srv.Close(); wg.Wait() }, nil
}
