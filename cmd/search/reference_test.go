package main

import (
	"flag"
	"io"
	"testing"

	"flightalliance/internal/refdoc"
)

// update rewrites the generated reference instead of comparing it.
var update = flag.Bool("update", false, "rewrite docs/reference/ from the code")

// regenerate is the command that rewrites the generated references.
const regenerate = "go test ./cmd/airline ./cmd/search -run TestReference -update"

// TestReference: docs/reference/search-flags.md is the flags the search server parses, as the
// code has them now.
func TestReference(t *testing.T) {
	c, err := parseConfig(nil, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	intro := "Generated from the flags `search` parses (cmd/search/config.go, cmd/search/network.go) by `" + regenerate +
		"`: do not edit. Every flag may also be given by its environment variable or by a line of the `--config` file " +
		"(docs/operations/configuration.md); `search --help` says the same."
	refdoc.Compare(t, "../../docs/reference/search-flags.md", refdoc.Flags("search server flags", intro, c.flags, envPrefix), *update, regenerate)
}
