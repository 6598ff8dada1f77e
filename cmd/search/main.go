package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"flightalliance/internal/daemonconfig"
	"flightalliance/internal/gcpercent"
	"flightalliance/internal/logformat"
	"flightalliance/internal/probe"
	"flightalliance/internal/profiling"
	"flightalliance/search"
)

const (
	exitOK      = 0
	exitUsage   = 1
	exitFailure = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr, processWide))
}

// scope says whether run may take over the process-wide loggers (main) or not (a test that
// runs the command in-process, many times).
type scope bool

const (
	processWide scope = true
	inProcess   scope = false
)

// run serves until ctx is done and returns the exit code; --check-config only checks and prints
// the configuration on stdout. Logs go to stderr.
func run(ctx context.Context, args, environ []string, stdout, stderr io.Writer, sc scope) int {
	c, err := parseConfig(args, environ, stderr)
	refusedCode := exitUsage
	if daemonconfig.Asked("check-config", args, configSources(environ)) {
		refusedCode = exitFailure // --check-config's refusal
	}
	var refused usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &refused):
		usageError(stderr, refused.flag, refused.err)
		return refusedCode
	case err != nil:
		return refusedCode // the flag package said why
	case c.checkConfig:
		return checkConfig(c, stdout, stderr)
	}
	return serve(ctx, c, stderr, sc)
}

// serve builds the server the config describes and serves until ctx is done.
func serve(ctx context.Context, c config, stderr io.Writer, sc scope) int {
	ctx, cancel := context.WithCancel(ctx) // what serve starts (the SIGHUP handler) ends with it
	defer cancel()
	log := logformat.New(stderr, c.format, c.level)
	if sc == processWide {
		logformat.TakeOver(log)
	}
	c.server.Logger = log
	gcpercent.Apply(c.gc)
	log.Info("garbage collector target", "gc_percent", c.gc.String(), "memory_limit", gcpercent.MemoryLimit())
	if c.gc.Off() {
		log.Warn("GOGC=off: the garbage collector is off, and this server's memory grows without bound; unset GOGC")
	}
	srv, err := search.New(c.server)
	if err != nil {
		return usageError(stderr, "", err)
	}
	reloadTrustOnHangup(ctx, c.trustFile, c.server.Trust, log)
	l, err := net.Listen("tcp", c.listen)
	if err != nil {
		log.Error("cannot listen", "flag", "--listen", "addr", c.listen, "err", err)
		return exitFailure
	}
	if c.pprof != "" {
		stop, err := profiling.Start(c.pprof, log)
		if err != nil {
			log.Error("cannot serve profiles", "flag", "--pprof", "addr", c.pprof, "err", err)
			return exitFailure
		}
		defer stop()
	}
	if c.probeListen != "" {
		probes, err := probe.Listen(c.probeListen, srv.Readiness, log)
		if err != nil {
			log.Error("cannot serve the probes", "flag", "--probe-listen", "addr", c.probeListen, "err", err)
			return exitFailure
		}
		defer probes.Close() // after Serve returned: /readyz says "shutting down" until then
	}
	if err := srv.Serve(ctx, l); err != nil {
		log.Error("search server stopped", "err", err)
		return exitFailure
	}
	log.Info("search server stopped")
	return exitOK
}

func usageError(stderr io.Writer, flagName string, err error) int {
	if flagName != "" {
		fmt.Fprintf(stderr, "search: %s: %v\n", flagName, err)
	} else {
		fmt.Fprintf(stderr, "search: %v\n", err)
	}
	return exitUsage
}
