package gcpercent

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestChooseTakesTheFlagThenGOGCThenTheDefault(t *testing.T) {
	for _, tc := range []struct {
		name    string
		flag    int
		flagSet bool
		env     string
		want    Choice
	}{
		{"nothing set", Search, false, "", Choice{Search, "default"}},
		{"nothing set, the airline's default", Airline, false, "", Choice{Airline, "default"}},
		{"GOGC set", Search, false, "400", Choice{400, "GOGC"}},
		{"GOGC with spaces", Search, false, " 150 ", Choice{150, "GOGC"}},
		{"GOGC off", Search, false, "off", Choice{-1, "GOGC"}},
		{"GOGC not a number", Airline, false, "lots", Choice{Airline, `default; GOGC "lots" is not a whole number of 32 bits`}},
		{"GOGC beyond 32 bits", Airline, false, "4294967296", Choice{Airline, `default; GOGC "4294967296" is not a whole number of 32 bits`}},
		{"GOGC negative", Search, false, "-1", Choice{-1, "GOGC"}},
		{"the flag outranks GOGC", 300, true, "50", Choice{300, "--gc-percent"}},
		{"the flag at the default value, given", Search, true, "50", Choice{Search, "--gc-percent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Choose(tc.flag, tc.flagSet, tc.env); got != tc.want {
				t.Errorf("Choose(%d, %v, %q) = %+v, want %+v", tc.flag, tc.flagSet, tc.env, got, tc.want)
			}
		})
	}
}

func TestCheckRefusesValuesOutsideTheRange(t *testing.T) {
	for _, ok := range []int{Min, Search, Airline, Max} {
		if err := Check(ok); err != nil {
			t.Errorf("Check(%d) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []int{-1, 0, Min - 1, Max + 1} {
		if err := Check(bad); err == nil {
			t.Errorf("Check(%d) = nil, want an error", bad)
		}
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
