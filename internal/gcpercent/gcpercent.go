// Package gcpercent chooses the garbage collector's target (Go's GOGC: how far the heap may grow
// past what the last collection left live, in percent of it) for the servers, and applies it.
//
// The servers allocate in proportion to the answers they make — a whole answer of 2,700 trips
// is a megabyte of JSON at the search server and as much of trips at the delegate — over a live
// heap that is small beside it, so that Go's default (100) collects every few answers. At 200,
// BenchmarkSearchUnderLoad's whole answers went from 316–333/s to 359–394/s on a 2-core machine,
// the peak resident memory of a machine by about a tenth (README, "Memory and the garbage
// collector"). The environment's GOGC, the standard knob, is still obeyed when it is set; a
// --gc-percent flag outranks both.
package gcpercent

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
)

// Default is the servers' target when neither the flag nor GOGC sets one.
const Default = 200

// Min and Max bound what the flag takes: below Min the collector runs almost all the time, and
// above Max the heap may grow to a hundred times the live data. Turning the collector off is not
// offered: a server's garbage is unbounded.
const (
	Min = 25
	Max = 10000
)

// Flag is the --gc-percent flag's help, for both servers.
const Flag = "garbage collector target (Go's GOGC): how far the heap grows past the live data between collections, in percent of it, 25 to 10000; default 200, or $GOGC when set — higher is faster under load and takes more memory"

// Choice is the target a server runs with and where it came from.
type Choice struct {
	Percent int    // 0 when GOGC asked for something the flag would not take ("off"): Go's reading of GOGC stands
	Source  string // "--gc-percent", "GOGC" or "default"
}

// String is the choice as the start-up log gives it: "200 (default)", "400 (GOGC)", "300
// (--gc-percent)", or "as GOGC says" when GOGC asked for what the flag would not take.
func (c Choice) String() string {
	if c.Percent == 0 {
		return "as GOGC says"
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

// Choose is the target for a flag value (flagSet: given on the command line) and the GOGC
// environment variable (env, "" when unset). It is pure: Apply applies it.
func Choose(flagValue int, flagSet bool, env string) Choice {
	switch {
	case flagSet:
		return Choice{Percent: flagValue, Source: "--gc-percent"}
	case strings.TrimSpace(env) != "":
		// Go's runtime has read GOGC already, "off" included; it is left as it is.
		n, err := strconv.Atoi(strings.TrimSpace(env))
		if err != nil {
			return Choice{Source: "GOGC"}
		}
		return Choice{Percent: n, Source: "GOGC"}
	}
	return Choice{Percent: Default, Source: "default"}
}

// Apply sets the collector's target to c's (nothing when it has none: GOGC's stands).
func Apply(c Choice) {
	if c.Percent > 0 {
		debug.SetGCPercent(c.Percent)
	}
}
