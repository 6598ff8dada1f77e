package main

import (
	"bytes"
	"flag"
	"io"
	"testing"

	"flightalliance/alliance"
	"flightalliance/internal/refdoc"
	"flightalliance/search"
)

// update rewrites the generated references instead of comparing them.
var update = flag.Bool("update", false, "rewrite docs/reference/ from the code")

// regenerate is the command that rewrites the generated references.
const regenerate = "go test ./cmd/airline ./cmd/search -run TestReference -update"

// TestReference: docs/reference/airline-flags.md is the flags the airline server parses, and
// docs/reference/metrics.md the metrics both servers register (the search server's too: one
// document), as the code has them now.
func TestReference(t *testing.T) {
	c, err := parseConfig(nil, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	intro := "Generated from the flags `airline` parses (cmd/airline/config.go, cmd/airline/network.go) by `" + regenerate +
		"`: do not edit. Every flag may also be given by its environment variable or by a line of the `--config` file " +
		"(docs/operations/configuration.md); `airline --help` says the same."
	refdoc.Compare(t, "../../docs/reference/airline-flags.md", refdoc.Flags("airline server flags", intro, c.flags, envPrefix), *update, regenerate)

	airline, err := refdoc.Metrics(alliance.MetricCollectors())
	if err != nil {
		t.Fatal(err)
	}
	searchServer, err := refdoc.Metrics(search.MetricCollectors())
	if err != nil {
		t.Fatal(err)
	}
	var doc bytes.Buffer
	doc.WriteString("# Metrics\n\nGenerated from the collectors each server registers on the registry its `GET /metrics` serves " +
		"(alliance/metrics.go, search/metrics.go) by `" + regenerate + "`: do not edit. Labels are listed by name; " +
		"a histogram's `le` is not one. `go_*` and `process_*` are client_golang's Go runtime and process collectors.\n\n")
	doc.Write(refdoc.MetricsSection("Airline server", "`GET /metrics` on `--listen`.", airline))
	doc.WriteString("\n")
	doc.Write(refdoc.MetricsSection("Search server", "`GET /metrics` on `--listen`.", searchServer))
	refdoc.Compare(t, "../../docs/reference/metrics.md", doc.Bytes(), *update, regenerate)
}
