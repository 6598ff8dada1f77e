// Command airline is one airline server: a machine of an alliance. Start N of them with the same
// --peers list and they form an alliance; see docs/api.md ("Airline server command line").
//
// Every flag may also come from its FA_AIRLINE_<FLAG> variable or a --config file
// (internal/daemonconfig); --probe-listen serves /livez and /readyz apart from the API
// (internal/probe); --log-format json makes the whole log, etcd's included, JSON; --check-config
// checks and prints the configuration and starts nothing (checkconfig.go).
//
// It is flag parsing (config.go) and wiring (this file; reload.go: the token file read again on
// SIGHUP) only: the machine itself is alliance.Machine.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"flightalliance/alliance"
	"flightalliance/coord/member"
	"flightalliance/internal/daemonconfig"
	"flightalliance/internal/gcpercent"
	"flightalliance/internal/logformat"
	"flightalliance/internal/probe"
	"flightalliance/internal/profiling"
)

func main() {
	os.Exit(run(os.Args[1:], os.Environ(), os.Stdout, os.Stderr, processWide))
}

// scope says whether run may take over the process-wide loggers (main) or not (a test that
// runs the command in-process, many times).
type scope bool

const (
	processWide scope = true
	inProcess   scope = false
)

// run is the command: it parses args, environ's FA_AIRLINE_* variables and the --config file,
// builds the machine and serves until SIGTERM or SIGINT, and returns the exit code: 0 after
// --help or a clean stop, 1 otherwise. --check-config only checks and prints the configuration
// on stdout (exit 0, or 2 if refused). Logs and complaints go to stderr.
func run(args, environ []string, stdout, stderr io.Writer, sc scope) int {
	c, err := parseConfig(args, environ, stderr)
	refused := 1
	if daemonconfig.Asked("check-config", args, configSources(environ)) {
		refused = exitBadConfig
	}
	var reported flagError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &reported):
		return refused
	case err != nil:
		fmt.Fprintf(stderr, "airline: %v\n", err)
		return refused
	case c.checkConfig:
		return checkConfig(c, stdout, stderr)
	}
	logger := logformat.New(stderr, c.logFormat, c.logLevel)
	if sc == processWide {
		logformat.TakeOver(logger)
	}
	// After this point a refusal is logged: in the log's format, so that a JSON stream stays JSON.
	fail := func(err error) int {
		if c.logFormat == logformat.JSON {
			logger.Error("airline server cannot start", "err", err.Error())
		} else {
			fmt.Fprintf(stderr, "airline: %v\n", err)
		}
		return 1
	}
	if c.token == "" {
		logger.Warn("no --token-file: the IntraClusterService is open to anyone who can reach it, and registrations carry no token")
	}
	gcpercent.Apply(c.gc)
	logger.Info("garbage collector target", "gc_percent", c.gc.String(), "memory_limit", gcpercent.MemoryLimit())
	if c.gc.Off() {
		logger.Warn("GOGC=off: the garbage collector is off, and this server's memory grows without bound; unset GOGC")
	}
	for _, w := range timerWarnings(c) {
		logger.Warn(w)
	}
	m, err := alliance.New(allianceConfig(c, logger))
	if err != nil {
		return fail(machineRefusal(c, err))
	}
	if c.pprof != "" {
		stop, err := profiling.Start(c.pprof, logger)
		if err != nil {
			return fail(fmt.Errorf("--pprof: %w", err))
		}
		defer stop()
	}
	if c.probeListen != "" {
		probes, err := probe.Listen(c.probeListen, m.Readiness, logger)
		if err != nil {
			return fail(fmt.Errorf("--probe-listen: %w", err))
		}
		defer probes.Close() // after the machine left: /readyz says "leaving" until then
	}
	return serve(m, c.tokenFile, logger)
}

// allianceConfig is the machine the command line describes: the etcd member's URLs take the
// scheme TLS asks for, and the advertised addresses default to the listened ones.
func allianceConfig(c config, logger *slog.Logger) alliance.Config {
	scheme := "http://"
	if c.tls.Enabled() {
		scheme = "https://"
	}
	// alliance.Config: negative disables, 0 is its default. The cache is bounded in bytes only
	// (--cache-mib): its count of answers is left at the alliance's default.
	flightsCache := c.flightsCache
	if flightsCache == 0 {
		flightsCache = -1
	}
	cacheBytes := c.cacheMiB << 20
	if cacheBytes == 0 {
		cacheBytes = -1
	}
	return alliance.Config{
		CacheBytes:      cacheBytes,
		FlightsCache:    flightsCache,
		Name:            c.name,
		Alliance:        c.alliance,
		Zone:            c.zone,
		Replicas:        c.replicas,
		Sellers:         c.sellers,
		Listen:          c.listen,
		AdvertiseURL:    c.advertiseURL,
		SearchURLs:      c.search,
		SessionTTL:      c.sessionTTL,
		CallTimeout:     c.callTimeout,
		HedgeAfter:      c.hedgeAfter,
		MinConnection:   c.minConnection,
		ForceNewCluster: c.forceNewCluster,
		Token:           c.token,
		AlsoAccepted:    c.alsoAccepted,
		TLS:             c.tls,
		Logger:          logger,
		Member: member.Config{
			EtcdLogger:      etcdLogger(logger),
			Name:            c.name,
			DataDir:         c.dataDir,
			PeerURL:         scheme + orDefault(c.peerAdvertise, c.peerListen),
			ClientURL:       scheme + orDefault(c.clientAdvertise, c.clientListen),
			ListenPeerURL:   scheme + c.peerListen,
			ListenClientURL: scheme + c.clientListen,
			InitialCluster:  c.peers,
			Zone:            orDefault(c.zone, c.name),
			PeerZones:       c.peerZones,
			Join:            c.join,
			ClusterToken:    "flightalliance-" + c.alliance,
			MaxVoters:       c.maxVoters,
			DeadGrace:       c.deadGrace,
			TickMs:          uint(c.heartbeat / time.Millisecond),
			ElectionMs:      uint(c.election / time.Millisecond),
			StartTimeout:    orForever(c.startTimeout),
			Logger:          logger,
		},
	}
}

// etcdLogger is the embedded etcd's zap logger: its records in the server's log, at warn as
// etcd is kept, each with component=etcd. Nil without a logger: etcd's own on stderr.
func etcdLogger(logger *slog.Logger) *zap.Logger {
	if logger == nil {
		return nil
	}
	return logformat.Zap(logger.With("component", "etcd").Handler(), zapcore.WarnLevel)
}

// serve runs the machine until SIGTERM or SIGINT, reading its token file again on SIGHUP, and
// returns the exit code.
func serve(m *alliance.Machine, tokenFile string, logger *slog.Logger) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	readTokensOnHangup(ctx, tokenFile, m, logger)
	if err := m.Run(ctx); err != nil {
		logger.Error("airline server stopped", "err", err)
		return 1
	}
	return 0
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// orForever maps 0 to "as long as it takes": a machine that restarts while its alliance has no
// quorum waits for it (the control plane waits; the data plane serves), and an attempt abandoned
// half-way could keep its ports.
func orForever(d time.Duration) time.Duration {
	if d <= 0 {
		return 100 * 365 * 24 * time.Hour
	}
	return d
}
