package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/flight/flightfile"
)

func runGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("flights generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: flights generate --sellers LY,UA --from 2026-12-01 [--days 7] [--per-day 20] [--seed 1] [--out data]")
		fmt.Fprintln(fs.Output(), "Writes DIR/<SELLER>.csv for each seller: realistic schedules between real airports, the same for the same flags.")
		fs.PrintDefaults()
	}
	sellers := fs.String("sellers", "", "comma-separated seller codes (required)")
	from := fs.String("from", "", "first day, an ISO date such as 2026-12-01 (required)")
	days := fs.Int("days", 7, "number of days")
	perDay := fs.Int("per-day", 20, "flights per seller per day")
	seed := fs.Int64("seed", 1, "random seed; the same seed gives the same files")
	out := fs.String("out", "data", "directory to write the CSV files to")
	if code, done := parseFlags(fs, args); done {
		return code
	}

	cfg := flight.GenerateConfig{Days: *days, PerDay: *perDay, Seed: *seed}
	var err error
	if *sellers == "" {
		return usageError(stderr, "--sellers", errors.New("missing (comma-separated seller codes such as LY,UA)"))
	}
	if cfg.Sellers, err = parseSellerList(*sellers); err != nil {
		return usageError(stderr, "--sellers", err)
	}
	if *from == "" {
		return usageError(stderr, "--from", errors.New("missing (an ISO date such as 2026-12-01)"))
	}
	if cfg.From, err = flight.ParseDate(*from); err != nil {
		return usageError(stderr, "--from", err)
	}
	if *days < 1 {
		return usageError(stderr, "--days", fmt.Errorf("%d, want at least 1", *days))
	}
	if *perDay < 0 {
		return usageError(stderr, "--per-day", fmt.Errorf("%d, want at least 0", *perDay))
	}
	if *out == "" {
		return usageError(stderr, "--out", errors.New("empty directory name"))
	}

	data, err := flight.Generate(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "flights generate: %v\n", err)
		return exitUsage
	}
	if err := flightfile.WriteDir(*out, data); err != nil {
		fmt.Fprintf(stderr, "flights generate: %v\n", err)
		return exitUsage
	}
	n := 0
	for _, fl := range data {
		n += len(fl)
	}
	fmt.Fprintf(stdout, "wrote %d flights of %d sellers to %s\n", n, len(data), *out)
	return exitOK
}

// parseFlags parses args into fs. done reports that the command must stop with code: after
// --help (0) or a flag error (1; the flag package has printed the message and usage).
func parseFlags(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, true
		}
		return exitUsage, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q (every input is a flag)\n", fs.Name(), fs.Arg(0))
		return exitUsage, true
	}
	return 0, false
}

func usageError(stderr io.Writer, flagName string, err error) int {
	fmt.Fprintf(stderr, "flights: %s: %v\n", flagName, err)
	return exitUsage
}

// maxGenerated bounds the sellers of one generate call (a search filter allows far fewer).
const maxGenerated = 10000

// parseSellerList reads --sellers: comma-separated seller codes, repeats dropped.
func parseSellerList(list string) ([]string, error) {
	parts := strings.Split(list, ",")
	if len(parts) > maxGenerated {
		return nil, fmt.Errorf("%d seller codes, at most %d", len(parts), maxGenerated)
	}
	var out []string
	for _, p := range parts {
		if err := flight.CheckSeller(p); err != nil {
			return nil, err
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}
