// Command alliancectl starts, inspects, breaks and stops a local flightalliance: one search
// server and alliances of airline servers on 127.0.0.1, over a run directory (default var/run)
// whose state.json records every process it started (name, pid, command line, ports, log).
//
// It speaks only the external contract of API.md (command lines, REST, GET /status, CSV files),
// so it imports nothing from the module. It must never signal a process it did not start: every
// signal goes to a pid from state.json, and only while that pid's command line is still the one
// recorded. It builds nothing: the binaries come from --bin (default bin/, see `make build`).
//
// Run `alliancectl help` for the commands; scripts/README.md has the walk-through.
package main
