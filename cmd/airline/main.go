// Command airline is one airline server: a machine of an alliance. Start N of them with the same
// --peers list and they form an alliance; see API.md ("Airline server command line").
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
	"strings"
	"syscall"
	"time"

	"flightalliance/alliance"
	"flightalliance/coord"
	"flightalliance/internal/pki"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// listFlag is a repeatable flag; each use may also hold a comma-separated list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("airline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		name         = fs.String("name", "", "machine name, unique in the alliance (required)")
		allianceName = fs.String("alliance", "", "alliance name (required)")
		listen       = fs.String("listen", "127.0.0.1:8101", "host:port for the SOAP services, /status, /healthz, /metrics")
		advertise    = fs.String("advertise-url", "", "base URL other machines and search servers use to reach --listen (default http://<listen>)")
		peerListen   = fs.String("peer-listen", "127.0.0.1:2381", "host:port of the embedded etcd member's peer URL")
		clientListen = fs.String("client-listen", "127.0.0.1:2391", "host:port of the embedded etcd member's client URL")
		peerAdv      = fs.String("peer-advertise", "", "host:port the other members use to reach --peer-listen, when it differs (a proxy in front of it); default --peer-listen")
		clientAdv    = fs.String("client-advertise", "", "host:port others use to reach --client-listen, when it differs; default --client-listen")
		peers        = fs.String("peers", "", "initial members, name=http://host:port,... (the alliance bootstrapped together)")
		dataDir      = fs.String("data-dir", "", "directory for this machine's etcd data (default var/<name>)")
		sessionTTL   = fs.Duration("session-ttl", 3*time.Second, "lease of this machine's ephemeral entries (etcd's floor is 2s)")
		deadGrace    = fs.Duration("dead-member-grace", 10*time.Second, "how long an etcd member may be unreachable before it is removed")
		maxVoters    = fs.Int("max-voters", 5, "etcd voting members at most; further machines are learners")
		minConn      = fs.Duration("min-connection", 30*time.Minute, "minimum connection time between two flights")
		callTimeout  = fs.Duration("call-timeout", 2*time.Second, "timeout of every call to another machine")
		hedgeAfter   = fs.Duration("hedge-after", 150*time.Millisecond, "a holder that has not answered a search this long gets the seller's other holder asked too")
		cacheSize    = fs.Int("cache-size", 4096, "getTrips answers the delegate caches (0 disables the cache)")
		startTimeout = fs.Duration("etcd-start-timeout", 0, "give up starting the embedded etcd member after this long (0: wait for quorum as long as it takes, serving meanwhile)")
		forceNew     = fs.Bool("force-new-cluster", false, "OPERATOR RECOVERY ONLY: restart this member's etcd as a one-member cluster from its data (after losing quorum for good); the other machines must then rejoin with empty data dirs")
		logLevel     = fs.String("log-level", "info", "debug, info, warn or error")
		tokenFile    = fs.String("token-file", "", "file holding the alliance's token (mode 0600, the same on every machine): required on every IntraClusterService call and sent on registration; without it the alliance runs open")
		tlsCert      = fs.String("tls-cert", "", "certificate file: serve HTTPS and secure etcd's peer and client traffic (--peers and --join then use https://)")
		tlsKey       = fs.String("tls-key", "", "private key file of --tls-cert")
		tlsCA        = fs.String("tls-ca", "", "CA file: callers and etcd peers must present certificates it signed; the servers this machine calls are verified with it")
		sellers      listFlag
		join         listFlag
		search       listFlag
	)
	fs.Var(&sellers, "seller", "CODE=path/to/CODE.csv, a seller this machine brings (repeatable)")
	fs.Var(&join, "join", "client URLs of running members, to join a running alliance (repeatable or comma-separated)")
	fs.Var(&search, "search", "search server base URL to register with while delegate (repeatable or comma-separated)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "airline: unexpected argument %q\n", fs.Arg(0))
		return 1
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "airline: --log-level: %v\n", err)
		return 1
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	sellerFiles := map[string]string{}
	for _, s := range sellers {
		code, file, ok := strings.Cut(s, "=")
		if !ok || code == "" || file == "" {
			fmt.Fprintf(stderr, "airline: --seller: %q is not CODE=path\n", s)
			return 1
		}
		if _, dup := sellerFiles[code]; dup {
			fmt.Fprintf(stderr, "airline: --seller: %s given twice\n", code)
			return 1
		}
		sellerFiles[code] = file
	}
	if *dataDir == "" {
		*dataDir = "var/" + *name
	}
	token := ""
	if *tokenFile != "" {
		t, err := pki.ReadToken(*tokenFile)
		if err != nil {
			fmt.Fprintf(stderr, "airline: %v\n", err)
			return 1
		}
		token = t
	} else {
		logger.Warn("no --token-file: the IntraClusterService is open to anyone who can reach it, and registrations carry no token")
	}
	tlsFiles := pki.Files{CertFile: *tlsCert, KeyFile: *tlsKey, CAFile: *tlsCA}
	if err := tlsFiles.Check(); err != nil {
		fmt.Fprintf(stderr, "airline: --%v\n", err)
		return 1
	}
	scheme := "http://"
	if tlsFiles.Enabled() {
		scheme = "https://"
	}
	if *cacheSize < 0 {
		fmt.Fprintln(stderr, "airline: --cache-size: must be 0 or more")
		return 1
	}
	if *cacheSize == 0 {
		*cacheSize = -1 // alliance.Config: negative disables
	}
	cfg := alliance.Config{
		CacheSize:       *cacheSize,
		Name:            *name,
		Alliance:        *allianceName,
		Sellers:         sellerFiles,
		Listen:          *listen,
		AdvertiseURL:    *advertise,
		SearchURLs:      search,
		SessionTTL:      *sessionTTL,
		CallTimeout:     *callTimeout,
		HedgeAfter:      *hedgeAfter,
		MinConnection:   *minConn,
		ForceNewCluster: *forceNew,
		Token:           token,
		TLS:             tlsFiles,
		Logger:          logger,
		Member: coord.Config{
			Name:            *name,
			DataDir:         *dataDir,
			PeerURL:         scheme + orDefault(*peerAdv, *peerListen),
			ClientURL:       scheme + orDefault(*clientAdv, *clientListen),
			ListenPeerURL:   scheme + *peerListen,
			ListenClientURL: scheme + *clientListen,
			InitialCluster:  *peers,
			Join:            join,
			ClusterToken:    "flightalliance-" + *allianceName,
			MaxVoters:       *maxVoters,
			DeadGrace:       *deadGrace,
			StartTimeout:    orForever(*startTimeout),
			Logger:          logger,
		},
	}
	m, err := alliance.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "airline: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
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
