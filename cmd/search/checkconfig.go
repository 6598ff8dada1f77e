package main

import (
	"fmt"
	"io"
	"log/slog"

	"flightalliance/internal/daemonconfig"
	"flightalliance/search"
)

const checkConfigHelp = "check the configuration — flags, FA_SEARCH_* variables, --config file; trust and TLS files read — " +
	"print it (no secret: files are named, never shown) and exit: 0 if it is good, 2 naming the flag if not. It binds no port"

// checkConfig runs every check of c that needs no network — parseConfig has read the trust file
// and loaded the TLS files; the server is built as New builds it — and prints the effective
// configuration on stdout. It binds nothing. It returns the exit code: 0, or 2 with the error on
// stderr.
func checkConfig(c config, stdout, stderr io.Writer) int {
	c.server.Logger = slog.New(slog.DiscardHandler)
	if _, err := search.New(c.server); err != nil {
		usageError(stderr, "", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "# search: effective configuration (command line > %s<FLAG> > --config file > default)\n", envPrefix)
	if err := daemonconfig.Print(stdout, c.flags, c.origins, "check-config", "config"); err != nil {
		usageError(stderr, "", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "# derived: TLS %v, garbage collector target %s\n", c.server.TLS != nil, c.gc)
	if c.server.Trust != nil {
		fmt.Fprintf(stdout, "# trust file %s: alliances %v, tokens not shown\n", c.trustFile, c.server.Trust.Alliances())
	} else {
		fmt.Fprintln(stdout, "# no --trust: registrations are open")
	}
	fmt.Fprintln(stdout, "# configuration OK")
	return exitOK
}
