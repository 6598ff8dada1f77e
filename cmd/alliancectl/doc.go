// Command alliancectl starts, inspects, breaks and stops a local flightalliance: one search
// server and alliances of airline servers on 127.0.0.1, over a run directory (default var/run)
// whose state.json records every process it started (name, pid, command line, ports, log).
//
// It speaks only the external contract of docs/api.md (command lines, REST, GET /status, CSV files,
// the coordination tree), so it imports nothing of the servers: only internal packages — ports
// (freeport), keys (pki), etcd snapshots (backup), the airline's command line (airlinecmd) and
// the fault network (faultnet).
// It must never signal a process it did not start: every signal goes to a pid from state.json,
// and only while that pid's command line is still the one recorded. It builds nothing: the
// binaries come from --bin (default bin/, see `make build`).
//
// By default the machines reach each other and the search server only through proxies run by
// one proxy daemon it starts (the hidden `proxyd` command: toxiproxy in-process, behind gates that
// know which process opened each connection), which is what `partition` and `heal` act on. The
// operator's own traffic (status, load) goes to the processes directly.
//
// By default a run is locked down with the keys of DIR/keys (the `keys` command makes them, and
// `up` makes what is missing): every server speaks HTTPS with a certificate of their CA and
// wants one from its callers (the search server's REST clients excepted), a token per alliance
// guards its machines and its registrations, and alliancectl presents its own certificate.
// Secrets reach the processes as file names only. `--insecure` runs everything open over HTTP.
//
// status, replicas, load and backup also act on an alliance running anywhere — containers,
// Kubernetes, other hosts — through its etcd (--endpoints) or its search server (--search),
// with TLS files given by flag (keys --out DIR writes the operator's into DIR/hosts/alliancectl)
// and no state.json. restore writes a new alliance's etcd member data from a backup, and probe
// is a container's health check.
//
// Run `alliancectl help` for the commands; docs/operations/alliancectl.md has every command with
// an example.
//
// Its 45 files are one package because a command is one program: they are its subcommands, a
// file or a few each, named by subcommand (up*, status*, keys*, remote*, proxy*, backup,
// restore…), over one run directory (state.go) and one process table (procs.go). What other
// programs reuse lives in internal/.
package main
