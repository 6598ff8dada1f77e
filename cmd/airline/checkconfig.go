package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"flightalliance/alliance"
	"flightalliance/internal/daemonconfig"
)

const checkConfigHelp = "check the configuration — flags, FA_AIRLINE_* variables, --config file; seller, token and TLS files read — " +
	"print it (no secret: files are named, never shown) and exit: 0 if it is good, 2 naming the flag if not. " +
	"It binds no port, starts no etcd member and leaves --data-dir alone"

// exitBadConfig is --check-config's exit code for a configuration refused.
const exitBadConfig = 2

// checkConfig runs every check of c that needs no network — the machine built as New builds it
// (seller files loaded, TLS files loaded), its etcd member's configuration as Start checks it —
// and prints the effective configuration on stdout. It binds nothing, starts nothing and
// touches no data dir. It returns the exit code: 0, or 2 with the error on stderr.
func checkConfig(c config, stdout, stderr io.Writer) int {
	cfg := allianceConfig(c, slog.New(slog.DiscardHandler))
	if _, err := alliance.New(cfg); err != nil {
		return refuseConfig(stderr, machineRefusal(c, err))
	}
	if err := cfg.Member.Check(); err != nil {
		return refuseConfig(stderr, memberRefusal(c, err))
	}
	fmt.Fprintf(stdout, "# airline: effective configuration (command line > %s<FLAG> > --config file > default)\n", envPrefix)
	if err := daemonconfig.Print(stdout, c.flags, c.origins, "check-config", "config"); err != nil {
		return refuseConfig(stderr, err)
	}
	m := cfg.Member
	fmt.Fprintf(stdout, "# derived: data dir %s, zone %s, advertised URL %s, etcd peer URL %s, client URL %s, garbage collector target %s\n",
		m.DataDir, orDefault(c.zone, c.name), advertisedURL(c), m.PeerURL, m.ClientURL, c.gc)
	if c.tokenFile != "" {
		fmt.Fprintf(stdout, "# token file %s: %d token(s) read, not shown\n", c.tokenFile, 1+len(c.alsoAccepted))
	}
	fmt.Fprintln(stdout, "# configuration OK")
	return 0
}

// machineRefusal is alliance.New's refusal as the command line's read: each line that begins
// with a flag's name ("seller LY: ...", "tls-ca: ...") gets its dashes, and the first says where
// its value came from when not from the command line.
func machineRefusal(c config, err error) error {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		name := l[:strings.IndexFunc(l+":", func(r rune) bool { return r == ':' || r == ' ' || r == '/' })]
		if c.flags.Lookup(name) != nil {
			lines[i] = "--" + l
		}
	}
	return c.origins.Explain(errors.New(strings.Join(lines, "\n")))
}

// memberFlags are the flags behind member.Config's fields, by the words its refusals use.
var memberFlags = []struct{ says, flags string }{
	{"initial cluster", "--peers"},
	{"join URL", "--join"},
	{"listen peer URL", "--peer-listen"},
	{"listen client URL", "--client-listen"},
	{"peer URL", "--peer-listen, --peer-advertise"},
	{"client URL", "--client-listen, --client-advertise"},
	{"PeerZones", "--peer-zones"},
	{"Zone", "--zone"},
	{"election timeout", "--election-timeout"},
	{"data dir", "--data-dir"},
	{"name", "--name"},
}

// memberRefusal is coord's refusal of the etcd member's configuration, naming the flags behind
// the field it refuses.
func memberRefusal(c config, err error) error {
	for _, m := range memberFlags {
		if strings.Contains(err.Error(), m.says) {
			return c.origins.Explain(fmt.Errorf("%s: %w", m.flags, err))
		}
	}
	return err
}

// advertisedURL is the URL alliance.New gives the machine when --advertise-url is not set.
func advertisedURL(c config) string {
	switch {
	case c.advertiseURL != "":
		return c.advertiseURL
	case c.tls.Enabled():
		return "https://" + c.listen
	}
	return "http://" + c.listen
}

func refuseConfig(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "airline: %v\n", err)
	return exitBadConfig
}
