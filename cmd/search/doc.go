// Command search runs the search server (package search) on --listen until SIGTERM or SIGINT,
// then shuts down gracefully and exits 0.
//
// --trust FILE makes registrations need each alliance's token (see search.LoadTrust); SIGHUP
// reads the file again and puts it in force (reload.go: how a token is changed while the server
// runs). Without it the server is open and its log says so at start. --tls-cert and --tls-key serve HTTPS (REST
// clients need no certificate); --tls-ca verifies the https delegates it calls, to which it
// presents its certificate.
//
// Every flag may also come from its FA_SEARCH_<FLAG> variable or a --config file
// (internal/daemonconfig); --probe-listen serves /livez and /readyz apart from the API
// (internal/probe); --log-format json makes the log JSON; --check-config checks and prints the
// configuration and serves nothing (checkconfig.go).
//
// It is flag parsing and wiring only: it must not hold any logic of the server itself.
//
// Exit codes: 0 after a graceful shutdown (or a configuration --check-config found good), 1 bad
// usage (the message names the flag), 2 the server could not start or stopped on an error, or
// --check-config refused the configuration (naming the flag).
package main
