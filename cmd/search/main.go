package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"flightalliance/internal/gcpercent"
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
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

// run serves until ctx is done and returns the exit code. Logs go to stderr.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	c, err := parseConfig(args, stderr)
	var refused usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &refused):
		return usageError(stderr, refused.flag, refused.err)
	case err != nil:
		return exitUsage // the flag package said why
	}
	return serve(ctx, c, stderr)
}

// serve builds the server the config describes and serves until ctx is done.
func serve(ctx context.Context, c config, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(ctx) // what serve starts (the SIGHUP handler) ends with it
	defer cancel()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.level}))
	c.server.Logger = log
	gcpercent.Apply(c.gc)
	log.Info("garbage collector target", "gc_percent", c.gc.String(), "memory_limit", gcpercent.MemoryLimit())
	if c.gc.Off() {
		log.Warn("GOGC=off: the garbage collector is off, and this server's memory grows without bound; unset GOGC or give --gc-percent")
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
