// Package gcpercent chooses the garbage collector's target (Go's GOGC: how far the heap may grow
// past what the last collection left live, in percent of it) for the servers, and applies it.
//
// The servers allocate in proportion to the answers they make — a whole answer of 2,700 trips
// is a megabyte of JSON at the search server and as much of trips at the delegate — over a live
// heap that is small beside it, so that at Go's default (100) they collect every few answers. At
// 200, BenchmarkSearchUnderLoad's whole answers went from 317–349/s to 353–377/s on a 2-core
// machine, and the search server's peak resident memory from 393 to 457 MB (docs/performance.md).
//
// The airline server's default is higher (Airline), for its tails: a delegate keeps whole lists
// of trips (a megabyte each, a dozen pointers a trip), and each collection marks all of them. As
// its kept lists grew past 250 MB, one collection took 160 ms, at a quarter of the cores, and the
// searches of those 160 ms took two to three times as long (BenchmarkSearchUnderLoad, six pairs
// of runs, 200 against 400: the whole answers' p99 205 → 157 ms, the cold pages' p99 43.8 →
// 39.9 ms, medians). The search server keeps JSON, which has no pointers to mark, and stays at
// Search. Measured again against Go's default (five pairs of BenchmarkSearchUnderLoad on a busy
// 2-core machine, medians): 299 cold pages/s at these defaults, 230 at GOGC=100; 3.9 against 5.25
// ms of CPU per cold page. So the defaults stay, without a flag of their own.
//
// GOGC, Go's own knob, is the only one: when it is set, the server obeys it as Go's runtime reads
// it, and these defaults apply only when it is not (there is no flag beside it). GOMEMLIMIT, Go's
// soft memory limit, is obeyed by Go's runtime itself: the collector then runs sooner as the
// process nears it, whatever the target.
package gcpercent

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
)

// Airline and Search are each server's target when GOGC sets none.
const (
	Airline = 400
	Search  = 200
)

// Choice is the target a server runs with and where it came from.
type Choice struct {
	Percent int    // -1: off (GOGC=off)
	Source  string // "GOGC" or "default"
}

// Off reports whether the choice turns the collector off: a server's garbage then grows without
// bound (the servers warn at start).
func (c Choice) Off() bool { return c.Percent < 0 }

// String is the choice as the start-up log gives it: "200 (default)", "400 (GOGC)", "off (GOGC)".
func (c Choice) String() string {
	if c.Off() {
		return "off (" + c.Source + ")"
	}
	return fmt.Sprintf("%d (%s)", c.Percent, c.Source)
}

// Choose is the target for a server whose own default is serverDefault, given the GOGC
// environment variable (env, "" when unset). It is pure: Apply applies it.
func Choose(serverDefault int, env string) Choice {
	v := strings.TrimSpace(env)
	switch {
	case v == "off":
		return Choice{Percent: -1, Source: "GOGC"} // no collection, as Go's runtime reads it
	case v != "":
		// A whole number as Go's runtime reads one (a 32-bit int; negative is off), spaces around
		// it allowed. Anything else Go's runtime reads as 100; the server's default stands.
		if n, err := strconv.ParseInt(v, 10, 32); err == nil {
			return Choice{Percent: int(n), Source: "GOGC"}
		}
		return Choice{Percent: serverDefault, Source: "default; GOGC " + strconv.Quote(v) + " is not a whole number of 32 bits"}
	}
	return Choice{Percent: serverDefault, Source: "default"}
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

// FromEnviron is Choose for an environment given as os.Environ gives it: GOGC's value is that of
// its last entry, as for Go's runtime.
func FromEnviron(serverDefault int, environ []string) Choice {
	env := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GOGC="); ok {
			env = v
		}
	}
	return Choose(serverDefault, env)
}
