package search

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/singleflight"

	"flightalliance/hedge"
	"flightalliance/search/booking"
	"flightalliance/search/console"
	"flightalliance/search/internal/rest"
	"flightalliance/search/registry"
)

// ErrInvalidConfig is wrapped by New's errors about its Config.
var ErrInvalidConfig = errors.New("invalid search server config")

// Config is what a search server needs; the zero value of each field means its default.
type Config struct {
	RegistrationTTL time.Duration // how long a registration lives after its last refresh; default 30s
	DelegateTimeout time.Duration // deadline of asking one alliance (its delegate and alternates); default 3s
	HedgeDelay      time.Duration // how long a delegate may answer nothing before its next alternate is asked too; default 300ms
	MaxSearches     int           // searches answered at once; default 256
	QueueTimeout    time.Duration // how long a search may wait to start before a 503 with Retry-After; default 1s
	// OrderedSearches run at once before the next search waits for its turn, first come first
	// served — only while turns are held briefly and come back fast enough that its turn should
	// come within OrderWait; else it runs at once beside them (turnGate, worthWaiting);
	// default 4, -1 none (every search at once).
	OrderedSearches int
	OrderWait       time.Duration // the longest a search waits for its turn; default 100ms
	AnswerCache     int64         // bytes of answers kept to ask for again with their ETags; default 512 MiB, -1 none
	BookingTimeout  time.Duration // deadline of one booking request across an alliance's delegate and alternates (each given at most DelegateTimeout); default 10s
	ShutdownTimeout time.Duration // how long Serve waits for requests in flight at shutdown; default 10s
	Dial            DialFunc      // the client of a delegate URI; default SOAPDialTLS(DelegateTimeout, DelegateTLS)
	Logger          *slog.Logger  // default slog.Default()
	Now             func() time.Time
	// Trust, when set, is who may register: Register and Unregister need the alliance's bearer
	// token (see LoadTrust). Nil is an open server, which Serve says in its log.
	Trust *Trust
	// TLS, when set, makes Serve answer HTTPS with it (its Certificates). Clients are not asked
	// for certificates here: that is the caller's choice in TLS.ClientAuth.
	TLS *tls.Config
	// DelegateTLS is the TLS of the calls to https delegates made by the default Dial: the roots
	// that verify them and the certificate presented to them. Nil means the system's roots and
	// no certificate.
	DelegateTLS *tls.Config
	// ConsoleClient is the web console's client of the machines' GET /status and /healthz
	// (every call bounded by the console's own deadlines). Nil means one with DelegateTLS.
	ConsoleClient *http.Client
}

// Server is the search server. Create it with New; it is safe for concurrent use.
type Server struct {
	cfg     Config
	log     *slog.Logger
	reg     *Registry
	clients *clientCache
	metrics *metrics
	hedge   *hedge.Policy      // when to ask an alliance's next alternate, learnt from every delegate's latency
	asks    singleflight.Group // calls to alliances in flight, shared by equal searches (askOnce)
	admit   *admission         // searches answered at once
	turns   *turnGate          // and in what order: first come, first served while that costs little (nil: every search at once)
	// conditional keeps answers to ask for again with their ETag (nil: AnswerCache 0)
	conditional *conditional
	handler     http.Handler
	ready       readiness // whether Serve answers (Readiness)
}

// New validates cfg, fills in defaults and builds the server's routes.
func New(cfg Config) (*Server, error) {
	if cfg.RegistrationTTL == 0 {
		cfg.RegistrationTTL = 30 * time.Second
	}
	if cfg.DelegateTimeout == 0 {
		cfg.DelegateTimeout = 3 * time.Second
	}
	if cfg.HedgeDelay == 0 {
		cfg.HedgeDelay = 300 * time.Millisecond
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = 10 * time.Second
	}
	if cfg.BookingTimeout == 0 {
		cfg.BookingTimeout = 10 * time.Second
	}
	if cfg.MaxSearches == 0 {
		cfg.MaxSearches = 256
	}
	if cfg.QueueTimeout == 0 {
		cfg.QueueTimeout = time.Second
	}
	if cfg.OrderedSearches == 0 {
		cfg.OrderedSearches = 4
	}
	if cfg.OrderWait == 0 {
		cfg.OrderWait = 100 * time.Millisecond
	}
	if cfg.AnswerCache == 0 {
		cfg.AnswerCache = 512 << 20
	}
	switch {
	case cfg.MaxSearches < 0:
		return nil, fmt.Errorf("%w: MaxSearches %d is negative", ErrInvalidConfig, cfg.MaxSearches)
	case cfg.AnswerCache < -1:
		return nil, fmt.Errorf("%w: AnswerCache %d, want -1 (none) or more", ErrInvalidConfig, cfg.AnswerCache)
	case cfg.OrderedSearches < -1:
		return nil, fmt.Errorf("%w: OrderedSearches %d, want -1 (none) or more", ErrInvalidConfig, cfg.OrderedSearches)
	case cfg.OrderWait < 0:
		return nil, fmt.Errorf("%w: OrderWait %s is negative", ErrInvalidConfig, cfg.OrderWait)
	case cfg.QueueTimeout < 0:
		return nil, fmt.Errorf("%w: QueueTimeout %s is negative", ErrInvalidConfig, cfg.QueueTimeout)
	case cfg.RegistrationTTL < 0:
		return nil, fmt.Errorf("%w: RegistrationTTL %s is negative", ErrInvalidConfig, cfg.RegistrationTTL)
	case cfg.DelegateTimeout < 0:
		return nil, fmt.Errorf("%w: DelegateTimeout %s is negative", ErrInvalidConfig, cfg.DelegateTimeout)
	case cfg.HedgeDelay < 0:
		return nil, fmt.Errorf("%w: HedgeDelay %s is negative", ErrInvalidConfig, cfg.HedgeDelay)
	case cfg.ShutdownTimeout < 0:
		return nil, fmt.Errorf("%w: ShutdownTimeout %s is negative", ErrInvalidConfig, cfg.ShutdownTimeout)
	case cfg.BookingTimeout < 0:
		return nil, fmt.Errorf("%w: BookingTimeout %s is negative", ErrInvalidConfig, cfg.BookingTimeout)
	}
	if cfg.Dial == nil {
		cfg.Dial = SOAPDialTLS(cfg.DelegateTimeout, cfg.DelegateTLS)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger,
		reg:     registry.New(cfg.RegistrationTTL, cfg.Now),
		clients: newClientCache(cfg.Dial),
		// Silent delegates only: an alternate answers from cold caches, gathering from the
		// holders the delegate asks, so hedging a delegate that is busy (answering, slowly)
		// adds load where there is too much — under 16 connections it halved whole answers/s.
		hedge: hedge.NewPolicy(hedge.Settings{Max: cfg.HedgeDelay, FreeAfter: cfg.DelegateTimeout / 2, SilentOnly: true}),
		admit: newAdmission(cfg.MaxSearches, cfg.QueueTimeout),
	}
	s.conditional = newConditional(cfg.AnswerCache)
	s.metrics = newMetrics(s.reg.Counts)
	if cfg.OrderedSearches > 0 {
		s.turns = newTurnGate(cfg.OrderedSearches, cfg.OrderWait, cfg.Now,
			func(how string) { s.metrics.ordered.WithLabelValues(how).Inc() })
	}
	s.handler = s.routes()
	return s, nil
}

func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// HEAD is answered wherever GET is, as RFC 9110 asks of every server (a search's HEAD runs
	// the search: its headers are the answer's).
	r.Use(s.observe, s.recoverPanic, limitBody(maxBodyBytes), middleware.GetHead)
	notFound := func(w http.ResponseWriter, r *http.Request) {
		rest.Error(w, http.StatusNotFound, fmt.Sprintf("no such resource: %s", rest.Clip(r.URL.Path)))
	}
	r.NotFound(notFound)
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		allow := allowedMethods(r)
		if allow == "" { // chi's answer to a method it has no routes for, on any path
			notFound(w, r)
			return
		}
		w.Header().Set("Allow", allow)
		rest.Error(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s", r.Method, rest.Clip(r.URL.Path)))
	})
	r.Get("/Services/FlightsSearch/flight", s.handleSearch)
	b := s.bookings()
	r.Post(booking.Path, b.Reserve)
	r.Get(booking.Path+"/{id}", b.Get)
	r.Delete(booking.Path+"/{id}", b.Cancel)
	r.Post(booking.Path+"/{id}/confirm", b.Confirm)
	r.Get(booking.SeatsPath, b.Seats)
	r.Put("/Services/FlightsSearchReg/Register/{clustername}", s.handleRegister)
	r.Put("/Services/FlightsSearchReg/Unregister", s.handleUnregister)
	r.Get("/Services/FlightsSearchReg/", s.handleList)
	r.Get("/Services/FlightsSearchReg", s.handleList)
	r.Get("/openapi.json", handleOpenAPI)
	r.Get("/", console.ServePage)
	r.Get("/console/{file}", console.ServeAsset)
	consoleClient := s.cfg.ConsoleClient
	if consoleClient == nil {
		consoleClient = console.Client(s.cfg.DelegateTLS)
	}
	r.Get(console.AlliancesPath, console.Live(consoleClient, s.cfg.Now, s.reg.All))
	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		rest.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	return r
}

// bookings are the booking routes' handlers, on this server's registrations, machines, deadlines
// and metrics.
func (s *Server) bookings() *booking.Handlers {
	return booking.New(booking.Config{
		Registrations: s.reg.All,
		Machine:       func(uri string) (any, error) { return s.clients.get(uri) },
		Timeout:       s.cfg.BookingTimeout,
		CallTimeout:   s.cfg.DelegateTimeout,
		Answered: func(op string, status int) {
			s.metrics.bookingRequests.WithLabelValues(op, strconv.Itoa(status)).Inc()
		},
		AlternateCalled: func(alliance string) { s.metrics.alternateCalls.WithLabelValues(alliance).Inc() },
		CallFailed:      s.countError,
	})
}

// Handler is the server's HTTP handler (every route of docs/api.md plus /openapi.json, /healthz and
// /metrics), for use under an http.Server of the caller's or in tests.
func (s *Server) Handler() http.Handler { return s.handler }

// Registry is the server's registrations (read-mostly; HTTP is the normal way to change them).
func (s *Server) Registry() *Registry { return s.reg }

// Serve answers on l (HTTPS when Config.TLS is set) until ctx is done, then stops accepting,
// waits up to ShutdownTimeout for requests in flight and returns nil. Any other end is an error.
// A plain-HTTP request to an HTTPS server gets net/http's 400, never an answer of a route.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		// A search may wait its turn, then ask twice (conditionally, then in full: inFull).
		WriteTimeout:   max(s.cfg.QueueTimeout+2*s.cfg.DelegateTimeout, s.cfg.BookingTimeout) + 10*time.Second,
		IdleTimeout:    60 * time.Second,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:    func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	if s.cfg.TLS != nil {
		srv.TLSConfig = s.cfg.TLS.Clone()
		go func() { errc <- srv.ServeTLS(l, "", "") }()
	} else {
		go func() { errc <- srv.Serve(l) }()
	}
	s.ready.set(serving)
	s.log.Info("search server listening", "addr", l.Addr().String(), "tls", s.cfg.TLS != nil,
		"registration_ttl", s.cfg.RegistrationTTL, "delegate_timeout", s.cfg.DelegateTimeout, "booking_timeout", s.cfg.BookingTimeout)
	if s.cfg.Trust == nil {
		s.log.Warn("registrations are open: anyone who reaches this server may register and unregister any alliance (start it with --trust FILE to require each alliance's token)")
	} else {
		s.log.Info("registrations need the alliance's token", "alliances", s.cfg.Trust.Alliances())
	}

	select {
	case err := <-errc:
		s.ready.set(shuttingDown)
		return fmt.Errorf("serve %s: %w", l.Addr(), err)
	case <-ctx.Done():
	}
	s.ready.set(shuttingDown)
	s.log.Info("search server shutting down", "addr", l.Addr().String())
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown %s: %w", l.Addr(), err)
	}
	<-errc // http.ErrServerClosed
	return nil
}
