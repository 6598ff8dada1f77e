package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// upConfig is what `up` (and `run`) start.
type upConfig struct {
	Dir       string
	Bin       string
	Machines  int // per alliance
	Alliances int
	PerMach   int    // sellers each machine brings
	Zones     int    // zones per alliance: machine j of an alliance runs in zone z<j mod Zones + 1>; 0: each its own
	Replicas  int    // --replicas of every machine; 0: the airline's default
	Search    string // host:port of the search server; port 0 picks a free one
	Data      DataSpec
	Wait      time.Duration
	LogLevel  string
	Airline   []string // extra airline flags, passed through
	Proxies   bool     // every machine behind proxies of a proxy daemon (partition, heal)
	Insecure  bool     // no keys: plain HTTP, no tokens
	Keys      string   // keys directory (alliancectl keys), made or completed when needed
}

// upFlags registers the flags `up` and `run` share.
func upFlags(fs *flag.FlagSet, cfg *upConfig) *string {
	bin := fs.String("bin", "bin", "directory holding the airline, search and flights binaries (make build)")
	fs.IntVar(&cfg.Alliances, "alliances", 1, "number of alliances")
	fs.IntVar(&cfg.PerMach, "sellers-per-machine", 2, "sellers each machine brings")
	fs.IntVar(&cfg.Zones, "zones", 0, "zones per alliance, machines dealt round-robin (m1 in z1, m2 in z2, ...); 0: every machine its own zone")
	fs.IntVar(&cfg.Replicas, "replicas", 0, "copies of every seller, 1 to 5 (airline --replicas; default the airline's, 2)")
	fs.StringVar(&cfg.Search, "search", "127.0.0.1:8080", "search server address (127.0.0.1:0 picks a free port)")
	fs.StringVar(&cfg.Data.From, "from", "2026-12-01", "first day of the generated flights")
	fs.IntVar(&cfg.Data.Days, "days", 7, "days of generated flights")
	fs.IntVar(&cfg.Data.PerDay, "per-day", 20, "generated flights per seller per day")
	fs.Int64Var(&cfg.Data.Seed, "seed", 1, "seed of the generated flights")
	fs.DurationVar(&cfg.Wait, "wait", 2*time.Minute, "how long to wait for a complete search answer")
	fs.StringVar(&cfg.LogLevel, "log-level", "info", "log level of the airline and search servers")
	fs.BoolVar(&cfg.Proxies, "proxies", true, "put every machine behind proxies (one proxy daemon), which partition and heal need; --proxies=false: direct")
	fs.BoolVar(&cfg.Insecure, "insecure", false, "run everything open over plain HTTP: no TLS, no tokens, no keys")
	fs.StringVar(&cfg.Keys, "keys", "", "keys directory (alliancectl keys); what is missing is made there (default DIR/keys of --dir)")
	fs.Func("airline-flag", "extra flag for every airline server, e.g. --airline-flag=--session-ttl=5s (repeatable)",
		func(v string) error { cfg.Airline = append(cfg.Airline, v); return nil })
	return bin
}

func (cfg *upConfig) validate(dir, bin string) error {
	var err error
	if cfg.Dir, err = absDir("--dir", dir); err != nil {
		return err
	}
	if cfg.Bin, err = absDir("--bin", bin); err != nil {
		return err
	}
	cfg.Data.Dir = filepath.Join(cfg.Dir, "data")
	switch {
	case cfg.Insecure && cfg.Keys != "":
		return usagef("--keys: an --insecure run uses no keys")
	case cfg.Insecure:
	case cfg.Keys == "":
		cfg.Keys = filepath.Join(cfg.Dir, "keys")
	default:
		if cfg.Keys, err = absDir("--keys", cfg.Keys); err != nil {
			return err
		}
	}
	switch {
	case cfg.Machines < 1 || cfg.Machines > 50:
		return usagef("N: %d machines, want 1 to 50", cfg.Machines)
	case cfg.Alliances < 1 || cfg.Alliances > maxAlliances:
		return usagef("--alliances: %d, want 1 to %d", cfg.Alliances, maxAlliances)
	case cfg.PerMach < 1 || cfg.PerMach > 20:
		return usagef("--sellers-per-machine: %d, want 1 to 20", cfg.PerMach)
	case cfg.Data.Days < 1:
		return usagef("--days: %d, want at least 1", cfg.Data.Days)
	case cfg.Data.PerDay < 1:
		return usagef("--per-day: %d, want at least 1", cfg.Data.PerDay)
	case cfg.Zones < 0 || cfg.Zones > cfg.Machines:
		return usagef("--zones: %d, want 0 to N (%d)", cfg.Zones, cfg.Machines)
	case cfg.Replicas < 0 || cfg.Replicas > 5:
		return usagef("--replicas: %d, want 1 to 5", cfg.Replicas)
	case cfg.Wait <= 0:
		return usagef("--wait: %v, want a positive duration", cfg.Wait)
	case len(cfg.Data.From) != len("2006-01-02"):
		return usagef("--from: %q is not an ISO date such as 2026-12-01", cfg.Data.From)
	}
	if _, err := time.Parse(time.DateOnly, cfg.Data.From); err != nil {
		return usagef("--from: %q is not an ISO date such as 2026-12-01", cfg.Data.From)
	}
	if host, _, ok := strings.Cut(cfg.Search, ":"); !ok || host == "" {
		return usagef("--search: %q is not host:port such as 127.0.0.1:8080", cfg.Search)
	}
	return checkBinaries(cfg.Bin)
}

// checkBinaries says which binary is missing and how to build it.
func checkBinaries(bin string) error {
	for _, b := range []string{"airline", "search", "flights"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			return fmt.Errorf("%s not found: build the binaries first (make build, or go build -o %s/ ./cmd/...), or point --bin at them",
				filepath.Join(bin, b), bin)
		}
	}
	return nil
}
