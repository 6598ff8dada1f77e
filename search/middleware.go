package search

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"flightalliance/search/internal/rest"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// observe logs every request and counts it by route pattern (never by raw path, so that the
// metric's cardinality stays bounded) and status code.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)

		route := "unmatched"
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		elapsed := time.Since(start)
		s.metrics.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
		s.metrics.requestSeconds.WithLabelValues(route).Observe(elapsed.Seconds())
		s.log.LogAttrs(r.Context(), levelFor(status), "http request",
			slog.String("method", r.Method), slog.String("route", route), slog.String("path", r.URL.Path),
			slog.Int("status", status), slog.Int("bytes", ww.BytesWritten()),
			slog.Duration("duration", elapsed), slog.String("remote", r.RemoteAddr))
	})
}

// recoverPanic turns a handler panic into a logged 500 instead of a dropped connection.
func (s *Server) recoverPanic(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("handler panic", "path", r.URL.Path, "panic", v)
				rest.Error(w, http.StatusInternalServerError, "internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// allowedMethods lists the methods the request's path has routes for, as a 405's Allow header
// must (RFC 9110, 15.5.6): HEAD wherever GET is (middleware.GetHead answers it as GET).
func allowedMethods(r *http.Request) string {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil || rctx.Routes == nil {
		return ""
	}
	path := rctx.RoutePath
	if path == "" {
		path = r.URL.RawPath
	}
	if path == "" {
		path = r.URL.Path
	}
	if path == "" {
		path = "/" // as chi routes it
	}
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		if rctx.Routes.Match(chi.NewRouteContext(), m, path) {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	return strings.Join(allow, ", ")
}

func levelFor(status int) slog.Level {
	if status >= 500 {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
