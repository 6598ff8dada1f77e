package main

import (
	"cmp"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"flightalliance/internal/daemonconfig"
	"flightalliance/internal/gcpercent"
	"flightalliance/internal/logformat"
	"flightalliance/internal/pki"
	"flightalliance/internal/probe"
	"flightalliance/search"
)

// config is what the command line asks for: the server's Config (without its logger), where to
// listen and to serve profiles, and the log level.
type config struct {
	server      search.Config
	trustFile   string // read again on SIGHUP (reload.go); "": an open server
	listen      string
	pprof       string // "": no profiles served
	probeListen string // "": no probes served
	level       slog.Level
	format      logformat.Format
	checkConfig bool                 // --check-config: check, print, serve nothing
	flags       *flag.FlagSet        // as parsed, for --check-config to print
	origins     daemonconfig.Origins // where each flag's value came from
	gc          gcpercent.Choice     // the garbage collector's target: GOGC, else the server's default
}

// usage is a command line refused: the flag (or "") and why.
type usage struct {
	flag string
	err  error
}

func (u usage) Error() string { return u.err.Error() }

// envPrefix begins the environment variable of every flag: FA_SEARCH_REGISTRATION_TTL is
// --registration-ttl.
const envPrefix = "FA_SEARCH_"

// configSources are where flags come from besides the command line. FA_SEARCH_FLAGS is no
// flag's: the test harnesses read it (more flags for the search server they start), and the
// server inherits it.
func configSources(environ []string) daemonconfig.Sources {
	return daemonconfig.Sources{EnvPrefix: envPrefix, Environ: environ, ConfigFlag: "config", NotFlags: []string{envPrefix + "FLAGS"}}
}

// parseConfig reads the command line, then environ's FA_SEARCH_* variables, then the --config
// file (see package daemonconfig). It returns flag.ErrHelp for -h, a usage naming the flag (and
// the variable or file line the value came from) for a value refused, or an error the flag
// package has already reported.
func parseConfig(args, environ []string, stderr io.Writer) (config, error) {
	var origins daemonconfig.Origins
	bad := func(flagName string, err error) (config, error) {
		return config{}, usage{flagName, origins.Blame(flagName, err)}
	}
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := configSources(environ)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: search [--listen 127.0.0.1:8080] [--trust FILE] [--tls-cert FILE --tls-key FILE [--tls-ca FILE]] [--registration-ttl 30s] [--delegate-timeout 3s] [--network lan] [--hedge-delay 300ms] [--max-searches 256] [--queue-timeout 1s] [--ordered-searches 4] [--answer-cache 512] [--booking-timeout 10s] [--log-level info] [--log-format text] [--pprof ADDR] [--probe-listen ADDR] [--config FILE] [--check-config]")
		fmt.Fprintln(fs.Output(), "Runs the search server: REST searches fanned out to the registered alliances' delegates.")
		fmt.Fprintln(fs.Output(), "Without --trust anyone may register and unregister any alliance (the log warns at start).")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\n"+daemonconfig.Usage(fs, src))
	}
	listen := fs.String("listen", "127.0.0.1:8080", "address to serve HTTP on (host:port)")
	ttl := fs.Duration("registration-ttl", 30*time.Second, "how long a registration lives after the delegate's last refresh")
	delegateTimeout := fs.Duration("delegate-timeout", 3*time.Second, "deadline of asking one alliance (its delegate, then its alternates)")
	hedgeDelay := fs.Duration("hedge-delay", networks[defaultNetwork].hedgeDelay, "a delegate that has answered nothing for this long (and for twice its 95th-percentile latency) gets its next registered alternate asked too — paused, cut off, dead; one that keeps answering, however slowly, is not hedged until a call has waited half of --delegate-timeout: an alternate answers from cold caches and would add to the load")
	network := fs.String("network", defaultNetwork, networkHelp)
	maxSearches := fs.Int("max-searches", 256, "searches answered at once; more wait for a slot")
	queueTimeout := fs.Duration("queue-timeout", time.Second, "how long a search may wait for a slot before it is refused with 503 and Retry-After")
	// Admission is three flags: how many searches at once (--max-searches), how long one may wait
	// for a slot before a 503 (--queue-timeout), how many of them run in order (--ordered-searches).
	// The order gate's longest wait is no flag (search.Config.OrderWait, 100ms by default): it is
	// also the gate's measure of a quick turn, and the gate steps aside by itself when turns are
	// held longer (across regions, a silent delegate), so no network needs another value.
	orderedSearches := fs.Int("ordered-searches", 4, "searches that run at once before the next waits its turn, first come first served — only while turns are held 100ms or less on average and come back fast enough that its own should come within that, the longest a search waits for its turn (a burst on cores the search server and its delegates share); otherwise (round trips across regions, a silent delegate) it runs at once beside them; 0: every search at once")
	answerCache := fs.Int64("answer-cache", 512, "MiB of recent answers kept to ask the alliances for again with their ETags: when every alliance says its part is current (no trips sent), the kept answer is sent; a whole answer of 2,700 trips is about 1 MiB; 0 keeps none")
	bookingTimeout := fs.Duration("booking-timeout", 10*time.Second, "deadline of one booking request (reserve, cancel, confirm, read) across an alliance's delegate and alternates, each given at most --delegate-timeout")
	shutdownTimeout := fs.Duration("shutdown-timeout", 10*time.Second, "how long to wait for searches in flight at shutdown")
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	pprofAddr := fs.String("pprof", "", "host:port to serve Go's runtime profiles on (/debug/pprof/), apart from --listen; off by default — bind it to a loopback or management address")
	trustFile := fs.String("trust", "", "trust file: lines \"<alliance> <token>\" (# comments; an alliance on two lines may use either token), mode 0600, read again on SIGHUP; with it, Register and Unregister need \"Authorization: Bearer <the alliance's token>\"")
	var tlsFiles pki.Files
	fs.StringVar(&tlsFiles.CertFile, "tls-cert", "", "certificate (PEM) to serve HTTPS with; needs --tls-key")
	fs.StringVar(&tlsFiles.KeyFile, "tls-key", "", "private key (PEM) of --tls-cert")
	fs.StringVar(&tlsFiles.CAFile, "tls-ca", "", "CA (PEM) that verifies the https delegates this server calls, to which it presents --tls-cert; REST clients need no certificate")
	fs.String("config", "", "file of flags, a line \"flag-name value\" each (# comments): the command line and FA_SEARCH_<FLAG> variables win over it")
	probeListen := fs.String("probe-listen", "", probe.FlagHelp)
	format := fs.String("log-format", "text", "text (key=value) or json (one object a line), on stderr")
	checkConfig := fs.Bool("check-config", false, checkConfigHelp)
	var err error
	if origins, err = daemonconfig.Parse(fs, args, src); err != nil {
		var refused *daemonconfig.SourceError
		if errors.As(err, &refused) {
			return bad("", err)
		}
		return config{}, err
	}

	preset, err := networkFlags(*network)
	if err != nil {
		return bad("--network", err)
	}
	if err := daemonconfig.Preset(fs, origins, preset, "--network "+*network); err != nil {
		return bad("--network", err)
	}
	var lvl slog.Level
	switch {
	case fs.NArg() > 0:
		return bad("", fmt.Errorf("unexpected argument %q (every input is a flag)", fs.Arg(0)))
	case lvl.UnmarshalText([]byte(*level)) != nil:
		return bad("--log-level", fmt.Errorf("%q is not one of debug, info, warn, error", *level))
	case *format != string(logformat.Text) && *format != string(logformat.JSON):
		return bad("--log-format", fmt.Errorf("%q, want json or text", *format))
	case *ttl <= 0:
		return bad("--registration-ttl", fmt.Errorf("%s, want a positive duration", *ttl))
	case *delegateTimeout <= 0:
		return bad("--delegate-timeout", fmt.Errorf("%s, want a positive duration", *delegateTimeout))
	case *hedgeDelay <= 0:
		return bad("--hedge-delay", fmt.Errorf("%s, want a positive duration", *hedgeDelay))
	case *maxSearches <= 0:
		return bad("--max-searches", fmt.Errorf("%d, want 1 or more", *maxSearches))
	case *answerCache < 0 || *answerCache > 1<<20:
		return bad("--answer-cache", fmt.Errorf("%d, want 0 (none) to 1048576 MiB", *answerCache))
	case *orderedSearches < 0:
		return bad("--ordered-searches", fmt.Errorf("%d, want 0 (none) or more", *orderedSearches))
	case *queueTimeout <= 0:
		return bad("--queue-timeout", fmt.Errorf("%s, want a positive duration", *queueTimeout))
	case *bookingTimeout <= 0:
		return bad("--booking-timeout", fmt.Errorf("%s, want a positive duration", *bookingTimeout))
	case *shutdownTimeout <= 0:
		return bad("--shutdown-timeout", fmt.Errorf("%s, want a positive duration", *shutdownTimeout))
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		return bad("--listen", fmt.Errorf("%q is not host:port: %v", *listen, err))
	}
	if *probeListen != "" {
		if err := probe.CheckAddr(*probeListen, [2]string{"--listen", *listen}, [2]string{"--pprof", *pprofAddr}); err != nil {
			return bad("", origins.Explain(err))
		}
	}
	var trust *search.Trust
	if *trustFile != "" {
		var err error
		if trust, err = search.LoadTrust(*trustFile); err != nil {
			return bad("--trust", err)
		}
	}
	var serverTLS, delegateTLS *tls.Config
	if err := tlsFiles.Check(); err != nil {
		return bad("", origins.Explain(fmt.Errorf("--%v", err)))
	}
	if tlsFiles.Enabled() {
		// REST clients are not asked for certificates; the CA verifies the delegates called.
		if serverTLS, err = tlsFiles.Server(false); err != nil {
			return bad("", origins.Explain(fmt.Errorf("--%v", err)))
		}
		if delegateTLS, err = tlsFiles.Client(); err != nil {
			return bad("", origins.Explain(fmt.Errorf("--%v", err)))
		}
	}

	return config{
		server: search.Config{
			RegistrationTTL: *ttl,
			DelegateTimeout: *delegateTimeout,
			HedgeDelay:      *hedgeDelay,
			MaxSearches:     *maxSearches,
			QueueTimeout:    *queueTimeout,
			OrderedSearches: cmp.Or(*orderedSearches, -1), // the flag's 0 is the Config's -1 (none)
			AnswerCache:     cmp.Or(*answerCache<<20, -1), // the flag's 0 is the Config's -1 (none)
			BookingTimeout:  *bookingTimeout,
			ShutdownTimeout: *shutdownTimeout,
			Trust:           trust,
			TLS:             serverTLS,
			DelegateTLS:     delegateTLS,
		},
		trustFile:   *trustFile,
		gc:          gcpercent.FromEnviron(gcpercent.Search, environ),
		listen:      *listen,
		pprof:       *pprofAddr,
		probeListen: *probeListen,
		level:       lvl,
		format:      logformat.Format(*format),
		checkConfig: *checkConfig,
		flags:       fs,
		origins:     origins,
	}, nil
}
