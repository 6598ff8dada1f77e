// Package gcpercent chooses the garbage collector's target (Go's GOGC: how far the heap may grow
// past what the last collection left live, in percent of it) for the servers, and applies it.
//
// The servers allocate in proportion to the answers they make — a whole answer of 2,700 trips
// is a megabyte of JSON at the search server and as much of trips at the delegate — over a live
// heap that is small beside it, so that at Go's default (100) they collect every few answers. At
// 200, BenchmarkSearchUnderLoad's whole answers went from 317–349/s to 353–377/s on a 2-core
// machine, and the search server's peak resident memory from 393 to 457 MB (README, "Speed under
// load").
//
// The airline server's default is higher (Airline), for its tails: a delegate keeps whole lists
// of trips (a megabyte each, a dozen pointers a trip), and each collection marks all of them. As
// its kept lists grew past 250 MB, one collection took 160 ms, at a quarter of the cores, and the
// searches of those 160 ms took two to three times as long (BenchmarkSearchUnderLoad, six pairs
// of runs, 200 against 400: the whole answers' p99 205 → 157 ms, the cold pages' p99 43.8 →
// 39.9 ms, medians; README, "Speed under load"). The search server keeps JSON, which has no
// pointers to mark, and stays at Search.
//
// The environment's GOGC, the standard knob, is still obeyed when it is set; a --gc-percent
// flag outranks both. GOMEMLIMIT, Go's soft memory limit, is obeyed by Go's runtime itself: the
// collector then runs sooner as the process nears it, whatever the target.
package gcpercent

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
)

// Airline and Search are each server's target when neither the flag nor GOGC sets one: the
// default of its --gc-percent flag.
const (
	Airline = 400
	Search  = 200
)

// Min and Max bound what the flag takes: below Min the collector runs almost all the time, and
// above Max the heap may grow to a hundred times the live data. Turning the collector off is not
// offered: a server's garbage is unbounded.
const (
	Min = 25
	Max = 10000
)

// Flag is the --gc-percent flag's help, for both servers (the flag gives its default).
const Flag = "garbage collector target (Go's GOGC): how far the heap grows past the live data between collections, in percent of it, 25 to 10000; when not given, $GOGC if set, else this default — higher is faster under load and takes more memory ($GOMEMLIMIT, Go's soft memory limit, makes it collect sooner near the limit)"

// Choice is the target a server runs with and where it came from.
type Choice struct {
	Percent int    // -1: off (GOGC=off, which the flag does not offer)
	Source  string // "--gc-percent", "GOGC" or "default"
}

// Off reports whether the choice turns the collector off: a server's garbage then grows without
// bound (the servers warn at start).
func (c Choice) Off() bool { return c.Percent < 0 }

// String is the choice as the start-up log gives it: "200 (default)", "400 (GOGC)", "300
// (--gc-percent)", "off (GOGC)".
func (c Choice) String() string {
	if c.Off() {
		return "off (" + c.Source + ")"
	}
	return fmt.Sprintf("%d (%s)", c.Percent, c.Source)
}

// Check refuses a --gc-percent value outside Min..Max, naming the range.
func Check(percent int) error {
	if percent < Min || percent > Max {
		return fmt.Errorf("%d, want %d to %d (percent of the live heap)", percent, Min, Max)
	}
	return nil
}

// Choose is the target for a flag value (flagSet: given on the command line; otherwise the flag's
// default, the server's) and the GOGC environment variable (env, "" when unset). It is pure:
// Apply applies it.
func Choose(flagValue int, flagSet bool, env string) Choice {
	v := strings.TrimSpace(env)
	switch {
	case flagSet:
		return Choice{Percent: flagValue, Source: "--gc-percent"}
	case v != "":
		if v == "off" {
			return Choice{Percent: -1, Source: "GOGC"} // no collection, as Go's runtime reads it
		}
		// A whole number as Go's runtime reads one (a 32-bit int; negative is off), spaces around
		// it allowed. Anything else Go's runtime reads as 100; the server's default stands.
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			return Choice{Percent: int(n), Source: "GOGC"}
		}
		return Choice{Percent: flagValue, Source: "default; GOGC " + strconv.Quote(v) + " is not a whole number of 32 bits"}
	}
	return Choice{Percent: flagValue, Source: "default"}
}

// Apply sets the collector's target to c's.
func Apply(c Choice) {
	debug.SetGCPercent(c.Percent)
}

// MemoryLimit is Go's soft memory limit as the start-up log gives it: "none", or the limit
// $GOMEMLIMIT set (Go's runtime reads it itself), in MiB when it is whole MiB, else in bytes.
func MemoryLimit() string {
	switch n := debug.SetMemoryLimit(-1); {
	case n == math.MaxInt64:
		return "none"
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (GOMEMLIMIT)", n>>20)
	default:
		return fmt.Sprintf("%d bytes (GOMEMLIMIT)", n)
	}
}
