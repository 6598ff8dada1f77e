package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"flightalliance/internal/pki"
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
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: search [--listen 127.0.0.1:8080] [--trust FILE] [--tls-cert FILE --tls-key FILE [--tls-ca FILE]] [--registration-ttl 30s] [--delegate-timeout 3s] [--hedge-delay 300ms] [--max-searches 256] [--queue-timeout 1s] [--answer-cache 256] [--booking-timeout 10s] [--log-level info] [--pprof ADDR]")
		fmt.Fprintln(fs.Output(), "Runs the search server: REST searches fanned out to the registered alliances' delegates.")
		fmt.Fprintln(fs.Output(), "Without --trust anyone may register and unregister any alliance (the log warns at start).")
		fs.PrintDefaults()
	}
	listen := fs.String("listen", "127.0.0.1:8080", "address to serve HTTP on (host:port)")
	ttl := fs.Duration("registration-ttl", 30*time.Second, "how long a registration lives after the delegate's last refresh")
	delegateTimeout := fs.Duration("delegate-timeout", 3*time.Second, "deadline of asking one alliance (its delegate, then its alternates)")
	hedgeDelay := fs.Duration("hedge-delay", 300*time.Millisecond, "the longest a delegate may take before its next registered alternate is asked too; sooner, at the delegate's 95th-percentile latency, once it is known (at least a tenth of this); hedges beyond 5% of calls are refused unless the delegate has answered nothing for this long")
	maxSearches := fs.Int("max-searches", 256, "searches answered at once; more wait for a slot")
	queueTimeout := fs.Duration("queue-timeout", time.Second, "how long a search may wait for a slot before it is refused with 503 and Retry-After")
	answerCache := fs.Int64("answer-cache", 256, "MiB of recent answers kept to ask the alliances for again with their ETags: when every alliance says its part is current (no trips sent), the kept answer is sent; 0 keeps none")
	bookingTimeout := fs.Duration("booking-timeout", 10*time.Second, "deadline of one booking request (reserve, cancel, confirm, read) across an alliance's delegate and alternates, each given at most --delegate-timeout")
	shutdownTimeout := fs.Duration("shutdown-timeout", 10*time.Second, "how long to wait for searches in flight at shutdown")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	pprofAddr := fs.String("pprof", "", "host:port to serve Go's runtime profiles on (/debug/pprof/), apart from --listen; off by default — bind it to a loopback or management address")
	trustFile := fs.String("trust", "", "trust file: lines \"<alliance> <token>\" (# comments), mode 0600; with it, Register and Unregister need \"Authorization: Bearer <the alliance's token>\"")
	var tlsFiles pki.Files
	fs.StringVar(&tlsFiles.CertFile, "tls-cert", "", "certificate (PEM) to serve HTTPS with; needs --tls-key")
	fs.StringVar(&tlsFiles.KeyFile, "tls-key", "", "private key (PEM) of --tls-cert")
	fs.StringVar(&tlsFiles.CAFile, "tls-ca", "", "CA (PEM) that verifies the https delegates this server calls, to which it presents --tls-cert; REST clients need no certificate")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}

	var lvl slog.Level
	switch {
	case fs.NArg() > 0:
		return usageError(stderr, "", fmt.Errorf("unexpected argument %q (every input is a flag)", fs.Arg(0)))
	case lvl.UnmarshalText([]byte(*level)) != nil:
		return usageError(stderr, "--log-level", fmt.Errorf("%q is not one of debug, info, warn, error", *level))
	case *ttl <= 0:
		return usageError(stderr, "--registration-ttl", fmt.Errorf("%s, want a positive duration", *ttl))
	case *delegateTimeout <= 0:
		return usageError(stderr, "--delegate-timeout", fmt.Errorf("%s, want a positive duration", *delegateTimeout))
	case *hedgeDelay <= 0:
		return usageError(stderr, "--hedge-delay", fmt.Errorf("%s, want a positive duration", *hedgeDelay))
	case *maxSearches <= 0:
		return usageError(stderr, "--max-searches", fmt.Errorf("%d, want 1 or more", *maxSearches))
	case *answerCache < 0:
		return usageError(stderr, "--answer-cache", fmt.Errorf("%d, want 0 (none) or more", *answerCache))
	case *queueTimeout <= 0:
		return usageError(stderr, "--queue-timeout", fmt.Errorf("%s, want a positive duration", *queueTimeout))
	case *bookingTimeout <= 0:
		return usageError(stderr, "--booking-timeout", fmt.Errorf("%s, want a positive duration", *bookingTimeout))
	case *shutdownTimeout <= 0:
		return usageError(stderr, "--shutdown-timeout", fmt.Errorf("%s, want a positive duration", *shutdownTimeout))
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		return usageError(stderr, "--listen", fmt.Errorf("%q is not host:port: %v", *listen, err))
	}
	var trust *search.Trust
	if *trustFile != "" {
		var err error
		if trust, err = search.LoadTrust(*trustFile); err != nil {
			return usageError(stderr, "--trust", err)
		}
	}
	var serverTLS, delegateTLS *tls.Config
	if err := tlsFiles.Check(); err != nil {
		return usageError(stderr, "", fmt.Errorf("--%v", err))
	}
	if tlsFiles.Enabled() {
		var err error
		// REST clients are not asked for certificates; the CA verifies the delegates called.
		if serverTLS, err = tlsFiles.Server(false); err != nil {
			return usageError(stderr, "", fmt.Errorf("--%v", err))
		}
		if delegateTLS, err = tlsFiles.Client(); err != nil {
			return usageError(stderr, "", fmt.Errorf("--%v", err))
		}
	}

	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lvl}))
	srv, err := search.New(search.Config{
		RegistrationTTL: *ttl,
		DelegateTimeout: *delegateTimeout,
		HedgeDelay:      *hedgeDelay,
		MaxSearches:     *maxSearches,
		QueueTimeout:    *queueTimeout,
		AnswerCache:     cmp.Or(*answerCache<<20, -1), // the flag's 0 is the Config's -1 (none)
		BookingTimeout:  *bookingTimeout,
		ShutdownTimeout: *shutdownTimeout,
		Logger:          log,
		Trust:           trust,
		TLS:             serverTLS,
		DelegateTLS:     delegateTLS,
	})
	if err != nil {
		return usageError(stderr, "", err)
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Error("cannot listen", "flag", "--listen", "addr", *listen, "err", err)
		return exitFailure
	}
	if *pprofAddr != "" {
		stop, err := profiling.Start(*pprofAddr, log)
		if err != nil {
			log.Error("cannot serve profiles", "flag", "--pprof", "addr", *pprofAddr, "err", err)
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
