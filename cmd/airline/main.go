// Command airline is one airline server: a machine of an alliance. Start N of them with the same
// --peers list and they form an alliance; see API.md ("Airline server command line").
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

	"flightalliance/alliance"
	"flightalliance/coord"
	"flightalliance/internal/gcpercent"
	"flightalliance/internal/profiling"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run is the command: it parses args, builds the machine and serves until SIGTERM or SIGINT,
// and returns the exit code: 0 after --help or a clean stop, 1 otherwise. Logs and complaints go
// to stderr.
func run(args []string, stderr io.Writer) int {
	c, err := parseConfig(args, stderr)
	var reported flagError
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &reported):
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "airline: %v\n", err)
		return 1
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.logLevel}))
	if c.token == "" {
		logger.Warn("no --token-file: the IntraClusterService is open to anyone who can reach it, and registrations carry no token")
	}
	gcpercent.Apply(c.gc)
	logger.Info("garbage collector target", "gc_percent", c.gc.String(), "memory_limit", gcpercent.MemoryLimit())
	if c.gc.Off() {
		logger.Warn("GOGC=off: the garbage collector is off, and this server's memory grows without bound; unset GOGC or give --gc-percent")
	}
	for _, w := range timerWarnings(c) {
		logger.Warn(w)
	}
	m, err := alliance.New(allianceConfig(c, logger))
	if err != nil {
		fmt.Fprintf(stderr, "airline: %v\n", err)
		return 1
	}
	if c.pprof != "" {
		stop, err := profiling.Start(c.pprof, logger)
		if err != nil {
			fmt.Fprintf(stderr, "airline: --pprof: %v\n", err)
			return 1
		}
		defer stop()
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
	cacheSize := c.cacheSize
	if cacheSize == 0 {
		cacheSize = -1 // alliance.Config: negative disables, 0 is its default size
	}
	flightsCache := c.flightsCache
	if flightsCache == 0 {
		flightsCache = -1 // as cacheSize
	}
	cacheBytes := c.cacheMiB << 20
	if cacheBytes == 0 {
		cacheBytes = -1 // as cacheSize
	}
	return alliance.Config{
		CacheSize:       cacheSize,
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
		Member: coord.Config{
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
