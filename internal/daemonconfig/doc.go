// Package daemonconfig fills a server's flag.FlagSet the way daemons take their configuration:
// from the command line, then from environment variables, then from a config file, then the
// flags' defaults — each flag from the first of these that gives it (etcd's ETCD_* variables and
// k3s's config file work the same way). Both servers, airline and search, take it this way.
//
//   - Environment: PREFIX + the flag's name upper-cased with '-' made '_' (FA_AIRLINE_ and
//     --peer-listen: FA_AIRLINE_PEER_LISTEN). An empty variable counts as unset. A repeatable
//     flag (a List) takes a comma-separated list in its variable.
//   - Config file (named by a flag, "--config FILE", or by its variable): a line is
//     "flag-name value" (the name may keep its dashes), "#" starts a comment line, and " #"
//     a comment after a value; blank lines are skipped. A boolean flag's name alone means true.
//     A repeatable flag may take several lines; any other flag one.
//
// A typo must not be silently ignored: a variable with the prefix that is no flag's, or a name
// in the file that is no flag, is refused, naming it; so is a bad value, naming the variable or
// the file's line and the flag. The command line is the flag package's, as before.
//
// Preset lets one flag choose other flags' defaults (the servers' --network sets their timers
// together): a flag any source gave keeps its value.
//
// Parse records where each flag came from (Origins), so that later checks can say it
// (Origins.Explain) and --check-config can print the effective configuration (Print).
//
// The package only reads: it binds, starts and writes nothing. github.com/peterbourgon/ff/v3 was
// the candidate; it is close, but it never looks at variables that are no flag's (a mistyped
// FA_AIRLINE_CAHCE_SIZE would be ignored), and its config file errors name no line. A test
// compares the two on the cases both handle.
package daemonconfig
