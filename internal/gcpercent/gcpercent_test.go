package gcpercent

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestChooseTakesGOGCThenTheServersDefault(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fallback int
		env      string
		want     Choice
	}{
		{"GOGC unset", Search, "", Choice{Search, "default"}},
		{"GOGC unset, the airline's default", Airline, "", Choice{Airline, "default"}},
		{"GOGC set", Search, "400", Choice{400, "GOGC"}},
		{"GOGC at Go's default", Airline, "100", Choice{100, "GOGC"}},
		{"GOGC with spaces", Search, " 150 ", Choice{150, "GOGC"}},
		{"GOGC off", Search, "off", Choice{-1, "GOGC"}},
		{"GOGC not a number", Airline, "lots", Choice{Airline, `default; GOGC "lots" is not a whole number of 32 bits`}},
		{"GOGC beyond 32 bits", Airline, "4294967296", Choice{Airline, `default; GOGC "4294967296" is not a whole number of 32 bits`}},
		{"GOGC negative", Search, "-1", Choice{-1, "GOGC"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Choose(tc.fallback, tc.env); got != tc.want {
				t.Errorf("Choose(%d, %q) = %+v, want %+v", tc.fallback, tc.env, got, tc.want)
			}
		})
	}
}

func TestApplySetsTheTarget(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	Apply(Choice{Percent: 250, Source: "default"})
	if got := debug.SetGCPercent(100); got != 250 {
		t.Errorf("after Apply(250) the target is %d", got)
	}
}

func TestChoiceSaysWhereItCameFrom(t *testing.T) {
	for c, want := range map[Choice]string{
		{Search, "default"}: "200 (default)",
		{400, "GOGC"}:       "400 (GOGC)",
		{-1, "GOGC"}:        "off (GOGC)",
	} {
		if got := c.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", c, got, want)
		}
	}
}

func TestMemoryLimitSaysWhatGoRunsWith(t *testing.T) {
	before := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(before)
	if got := MemoryLimit(); got != "none" {
		t.Errorf("with no limit: %q, want none", got)
	}
	for limit, want := range map[int64]string{6 << 30: "6144 MiB (GOMEMLIMIT)", 1500000000: "1500000000 bytes (GOMEMLIMIT)"} {
		debug.SetMemoryLimit(limit)
		if got := MemoryLimit(); got != want {
			t.Errorf("with a limit of %d bytes: %q, want %q", limit, got, want)
		}
	}
}

func TestFromEnvironReadsTheLastGOGC(t *testing.T) {
	if got := FromEnviron(Airline, []string{"PATH=/bin", "GOGC=50", "HOME=/", "GOGC=150"}); got != (Choice{150, "GOGC"}) {
		t.Errorf("two GOGC entries: %+v, want the last, 150", got)
	}
	if got := FromEnviron(Search, []string{"PATH=/bin", "XGOGC=50"}); got != (Choice{Search, "default"}) {
		t.Errorf("no GOGC entry: %+v, want the default", got)
	}
}
