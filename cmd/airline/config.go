package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"flightalliance/internal/daemonconfig"
	"flightalliance/internal/gcpercent"
	"flightalliance/internal/logformat"
	"flightalliance/internal/pki"
	"flightalliance/internal/probe"
)

// config is an airline server's command line, parsed and checked. What the flags alone can tell
// is checked here (and the token file read), so that a refused command line exits before anything
// starts; what needs the whole configuration (names, URLs, seller files) alliance.New checks.
type config struct {
	name, alliance                 string
	listen, advertiseURL           string
	peerListen, clientListen       string
	peerAdvertise, clientAdvertise string // "" when the members reach the listen addresses
	peers                          string
	peerZones                      map[string]string // --peer-zones: member name → zone
	zone                           string
	replicas                       int // 0: the alliance's (2 for a new one)
	join, search                   []string
	dataDir                        string
	sessionTTL, deadGrace          time.Duration
	heartbeat, election            time.Duration // etcd's heartbeat interval and election timeout
	maxVoters                      int
	minConnection                  time.Duration
	callTimeout, hedgeAfter        time.Duration
	cacheMiB                       int64  // the most the cached answers may take; 0 disables the cache
	flightsCache                   int    // 0 keeps none
	pprof                          string // --pprof: where to serve runtime profiles ("": nowhere)
	startTimeout                   time.Duration
	forceNewCluster                bool
	logLevel                       slog.Level
	token                          string   // "" without --token-file: the alliance runs open
	alsoAccepted                   []string // the token file's further lines: a change of token
	tokenFile                      string   // read again on SIGHUP (reload.go)
	tls                            pki.Files
	sellers                        map[string]string // code → CSV file
	probeListen                    string            // --probe-listen: where /livez and /readyz are served ("": nowhere)
	logFormat                      logformat.Format
	checkConfig                    bool                 // --check-config: check, print, start nothing
	flags                          *flag.FlagSet        // as parsed, for --check-config to print
	origins                        daemonconfig.Origins // where each flag's value came from
	gc                             gcpercent.Choice     // the garbage collector's target: GOGC, else the server's default
}

// flagError is a command line the flag package refused; it has already told the user why and
// printed the usage. flag.ErrHelp (--help) is one too.
type flagError struct{ error }

func (e flagError) Unwrap() error { return e.error }

// envPrefix begins the environment variable of every flag: FA_AIRLINE_PEER_LISTEN is
// --peer-listen.
const envPrefix = "FA_AIRLINE_"

// configSources are where flags come from besides the command line. FA_AIRLINE_FLAGS is no
// flag's: the test harnesses read it (more flags for every machine they start), and the machines
// they start inherit it.
func configSources(environ []string) daemonconfig.Sources {
	return daemonconfig.Sources{EnvPrefix: envPrefix, Environ: environ, ConfigFlag: "config", NotFlags: []string{envPrefix + "FLAGS"}}
}

// parseConfig parses args, then environ's FA_AIRLINE_* variables, then the --config file (see
// package daemonconfig), writing the flag package's complaints and usage to output. Its errors
// name the flag at fault, and the variable or file line when the value came from one; a
// flagError has already been reported on output.
func parseConfig(args, environ []string, output io.Writer) (_ config, err error) {
	var (
		c                            config
		logLevel, logFormat          string
		tokenFile, configFile        string
		sellers, join, searchServers daemonconfig.List
		peerZones                    daemonconfig.List
		network                      string
	)
	lan := networks[defaultNetwork]
	fs := flag.NewFlagSet("airline", flag.ContinueOnError)
	fs.SetOutput(output)
	src := configSources(environ)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage of airline:")
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\n"+daemonconfig.Usage(fs, src))
	}
	fs.StringVar(&c.name, "name", "", "machine name, unique in the alliance (required)")
	fs.StringVar(&c.alliance, "alliance", "", "alliance name (required)")
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8101", "host:port for the SOAP services, /status, /healthz, /metrics")
	fs.StringVar(&c.advertiseURL, "advertise-url", "", "base URL other machines and search servers use to reach --listen (default https://<listen> with --tls-cert, else http://<listen>)")
	fs.StringVar(&c.peerListen, "peer-listen", "127.0.0.1:2381", "host:port of the embedded etcd member's peer URL")
	fs.StringVar(&c.clientListen, "client-listen", "127.0.0.1:2391", "host:port of the embedded etcd member's client URL")
	fs.StringVar(&c.peerAdvertise, "peer-advertise", "", "host:port the other members use to reach --peer-listen, when it differs (a proxy in front of it); default --peer-listen")
	fs.StringVar(&c.clientAdvertise, "client-advertise", "", "host:port others use to reach --client-listen, when it differs; default --client-listen")
	fs.StringVar(&c.peers, "peers", "", "initial members, name=http://host:port,... (the alliance bootstrapped together)")
	fs.StringVar(&c.zone, "zone", "", "failure domain this machine runs in (rack, data centre): a seller's copies go to distinct zones, etcd's voters are spread over them (default: the machine's name, every machine its own zone)")
	fs.Var(&peerZones, "peer-zones", "zones of the --peers members, name=zone,... (the same on every machine of the bootstrap): the first etcd voters are chosen across them")
	fs.IntVar(&c.replicas, "replicas", 0, "copies of every seller, 1 to 5, alliance-wide: recorded by the bootstrap; a machine given another value than its alliance's refuses to start (default: the alliance's, 2 for a new alliance)")
	fs.StringVar(&c.dataDir, "data-dir", "", "directory for this machine's etcd data (default var/<name>)")
	fs.DurationVar(&c.sessionTTL, "session-ttl", lan.sessionTTL, "lease of this machine's ephemeral entries (etcd's floor is 1.5 × --election-timeout, 2s by default); keep it at least 3 × --election-timeout, or an etcd leader election can outlast it")
	fs.DurationVar(&c.deadGrace, "dead-member-grace", 10*time.Second, "how long an etcd member may be unreachable before it is removed")
	fs.DurationVar(&c.heartbeat, "heartbeat", lan.heartbeat, "etcd's heartbeat interval (whole milliseconds); etcd's rule of thumb: about the round trip between the alliance's machines, the largest one (--network wan sets it for machines across regions)")
	fs.DurationVar(&c.election, "election-timeout", lan.election, "etcd's election timeout (whole milliseconds): a member that hears no leader this long calls an election; etcd's rule of thumb: 10 × --heartbeat (at least 5 ×, at most 50s). Raise --session-ttl with it (3 × --election-timeout) and --hedge-after above the round trip")
	fs.StringVar(&network, "network", defaultNetwork, networkHelp)
	fs.IntVar(&c.maxVoters, "max-voters", 5, "etcd voting members at most; further machines are learners")
	fs.DurationVar(&c.minConnection, "min-connection", 30*time.Minute, "minimum connection time between two flights")
	fs.DurationVar(&c.callTimeout, "call-timeout", lan.callTimeout, "timeout of every call to another machine")
	fs.DurationVar(&c.hedgeAfter, "hedge-after", lan.hedgeAfter, "a holder that has not answered a search this long gets the seller's other holder asked too; keep it above the round trip between machines (across regions about 2 round trips), or calls to other machines are hedged before they can answer")
	fs.Int64Var(&c.cacheMiB, "cache-mib", 1024, "MiB the delegate's cached answers may take, the least recently used going first, each counted at 16 KiB, 800 bytes a trip and 200 a distinct flight (what it takes at most once both its SOAP forms are made): a whole answer of 2,700 trips counts about 2.1 MiB (0 disables the cache)")
	fs.IntVar(&c.flightsCache, "flights-cache", 500_000, "flights the delegate keeps of the holders' answers, per seller and airport, so that a search sharing an airport with an earlier one asks no holder for it (about 200 bytes each; 0 keeps none)")
	fs.DurationVar(&c.startTimeout, "etcd-start-timeout", 0, "give up starting the embedded etcd member after this long (0: wait for quorum as long as it takes, serving meanwhile)")
	fs.BoolVar(&c.forceNewCluster, "force-new-cluster", false, "OPERATOR RECOVERY ONLY: restart this member's etcd as a one-member cluster from its data (after losing quorum for good); the other machines must then rejoin with empty data dirs")
	fs.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&c.pprof, "pprof", "", "host:port to serve Go's runtime profiles on (/debug/pprof/: CPU, heap, goroutines), apart from --listen; off by default — bind it to a loopback or management address")
	fs.StringVar(&tokenFile, "token-file", "", "file holding the alliance's token (mode 0600, the same on every machine): required on every IntraClusterService call and sent on registration; without it the alliance runs open. While the token changes, a second line: the first line is sent, either is accepted. Read again on SIGHUP")
	fs.StringVar(&c.tls.CertFile, "tls-cert", "", "certificate file: serve HTTPS and secure etcd's peer and client traffic (--peers and --join then use https://)")
	fs.StringVar(&c.tls.KeyFile, "tls-key", "", "private key file of --tls-cert")
	fs.StringVar(&c.tls.CAFile, "tls-ca", "", "CA file: callers and etcd peers must present certificates it signed; the servers this machine calls are verified with it")
	fs.Var(&sellers, "seller", "CODE=path/to/CODE.csv, a seller this machine brings (repeatable)")
	fs.Var(&join, "join", "client URLs of running members, to join a running alliance (repeatable or comma-separated)")
	fs.Var(&searchServers, "search", "search server base URL to register with while delegate (repeatable or comma-separated)")
	fs.StringVar(&configFile, "config", "", "file of flags, a line \"flag-name value\" each (# comments; a repeatable flag may repeat): the command line and FA_AIRLINE_<FLAG> variables win over it")
	fs.StringVar(&c.probeListen, "probe-listen", "", probe.FlagHelp)
	fs.StringVar(&logFormat, "log-format", "text", "text (key=value) or json (one object a line): this server's log and its etcd member's, both on stderr")
	fs.BoolVar(&c.checkConfig, "check-config", false, checkConfigHelp)
	origins, err := daemonconfig.Parse(fs, args, src)
	var refused *daemonconfig.SourceError
	switch {
	case errors.As(err, &refused):
		return config{}, err // not reported yet
	case err != nil:
		return config{}, flagError{err}
	}
	// Every later refusal names the flag first; it then also says where the value came from.
	defer func() { err = origins.Explain(err) }()
	c.join, c.search = join, searchServers
	c.flags, c.origins = fs, origins

	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	preset, err := networkFlags(network)
	if err != nil {
		return config{}, err
	}
	if err := daemonconfig.Preset(fs, origins, preset, "--network "+network); err != nil {
		return config{}, err
	}
	if err := c.logLevel.UnmarshalText([]byte(logLevel)); err != nil {
		return config{}, fmt.Errorf("--log-level: %w", err)
	}
	if c.logFormat, err = logformat.Parse(logFormat); err != nil {
		return config{}, fmt.Errorf("--log-format: %w", err)
	}
	if c.probeListen != "" {
		if err := probe.CheckAddr(c.probeListen, [2]string{"--listen", c.listen}, [2]string{"--pprof", c.pprof}); err != nil {
			return config{}, err
		}
	}
	if c.sellers, err = sellerFiles(sellers); err != nil {
		return config{}, err
	}
	if c.peerZones, err = zonesOf(peerZones); err != nil {
		return config{}, err
	}
	if err := coverPeers(c.peerZones, c.peers); err != nil {
		return config{}, err
	}
	if z, listed := c.peerZones[c.name]; listed && c.zone == "" {
		c.zone = z // the bootstrap's list names this machine's zone
	} else if listed && z != c.zone {
		return config{}, fmt.Errorf("--zone %s: --peer-zones puts %s in zone %s", c.zone, c.name, z)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["replicas"] && (c.replicas < 1 || c.replicas > 5) {
		return config{}, fmt.Errorf("--replicas: %d, want 1 to 5", c.replicas)
	}
	if err := checkRaftTimers(c.heartbeat, c.election); err != nil {
		return config{}, err
	}
	if c.dataDir == "" {
		c.dataDir = "var/" + c.name
	}
	if tokenFile != "" {
		tokens, err := pki.ReadTokens(tokenFile)
		if err != nil {
			return config{}, fmt.Errorf("--%w", err) // it names token-file
		}
		c.token, c.alsoAccepted, c.tokenFile = tokens[0], tokens[1:], tokenFile
	}
	if err := c.tls.Check(); err != nil {
		return config{}, fmt.Errorf("--%w", err) // it names the flag without its dashes
	}
	if c.cacheMiB < 0 || c.cacheMiB > 1<<24 {
		return config{}, fmt.Errorf("--cache-mib: %d, want 0 (no cache) to %d", c.cacheMiB, 1<<24)
	}
	if c.flightsCache < 0 {
		return config{}, errors.New("--flights-cache: must be 0 or more")
	}
	// coord.Config reads zero as "the default": a value at or below it is refused here rather
	// than silently replaced.
	if c.maxVoters < 1 {
		return config{}, fmt.Errorf("--max-voters: %d, want 1 or more", c.maxVoters)
	}
	if c.deadGrace <= 0 {
		return config{}, fmt.Errorf("--dead-member-grace: %v, want a positive duration (such as 10s)", c.deadGrace)
	}
	if c.startTimeout < 0 {
		return config{}, fmt.Errorf("--etcd-start-timeout: %v, want 0 (wait as long as it takes) or a positive duration", c.startTimeout)
	}
	c.gc = gcpercent.FromEnviron(gcpercent.Airline, environ)
	return c, nil
}

// sellerFiles maps each seller code of --seller CODE=file to its file.
func sellerFiles(sellers []string) (map[string]string, error) {
	files := map[string]string{}
	for _, s := range sellers {
		code, file, ok := strings.Cut(s, "=")
		if !ok || code == "" || file == "" {
			return nil, fmt.Errorf("--seller: %q is not CODE=path", s)
		}
		if _, dup := files[code]; dup {
			return nil, fmt.Errorf("--seller: %s given twice", code)
		}
		files[code] = file
	}
	return files, nil
}

// zonesOf maps each member of --peer-zones name=zone to its zone.
func zonesOf(pairs []string) (map[string]string, error) {
	zones := map[string]string{}
	for _, p := range pairs {
		name, zone, ok := strings.Cut(p, "=")
		if !ok || name == "" || zone == "" {
			return nil, fmt.Errorf("--peer-zones: %q is not name=zone", p)
		}
		if _, dup := zones[name]; dup {
			return nil, fmt.Errorf("--peer-zones: %s given twice", name)
		}
		zones[name] = zone
	}
	return zones, nil
}

// coverPeers refuses --peer-zones that do not name exactly the members of --peers: the bootstrap's
// etcd voters are chosen from both, and a machine with a partial list would choose others.
func coverPeers(zones map[string]string, peers string) error {
	if len(zones) == 0 {
		return nil
	}
	listed := map[string]bool{}
	for _, p := range strings.Split(peers, ",") {
		if name, _, ok := strings.Cut(strings.TrimSpace(p), "="); ok {
			listed[name] = true
		}
	}
	for name := range listed {
		if _, ok := zones[name]; !ok {
			return fmt.Errorf("--peer-zones: %s of --peers has no zone (name every member of --peers, the same list on every machine)", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(zones)) {
		if !listed[name] {
			return fmt.Errorf("--peer-zones: %s is not a member of --peers", name)
		}
	}
	return nil
}
