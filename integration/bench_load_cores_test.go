package integration

import (
	"os"
	"strconv"
	"strings"
)

// coreTicks is the machine's CPU time from /proc/stat, every core together, in clock ticks: what
// was spent idle (idle and iowait) and in all.
type coreTicks struct{ idle, all int64 }

// readCoreTicks reads /proc/stat's "cpu" line; zero where there is none.
func readCoreTicks() coreTicks {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return coreTicks{}
	}
	line, _, _ := strings.Cut(string(b), "\n")
	fields := strings.Fields(line)
	if len(fields) < 5 || fields[0] != "cpu" {
		return coreTicks{}
	}
	var t coreTicks
	for i, f := range fields[1:] {
		v, _ := strconv.ParseInt(f, 10, 64)
		if i == 8 || i == 9 { // guest and guest_nice are counted in user and nice already
			continue
		}
		t.all += v
		if i == 3 || i == 4 {
			t.idle += v
		}
	}
	return t
}

func (t coreTicks) minus(before coreTicks) coreTicks {
	return coreTicks{idle: t.idle - before.idle, all: t.all - before.all}
}

// busy is the share of the cores' time spent working; 0 when nothing was counted.
func (t coreTicks) busy() float64 {
	if t.all <= 0 {
		return 0
	}
	return 1 - float64(t.idle)/float64(t.all)
}
