package integration

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"flightalliance/tests/framework"
)

// searchMetrics reads the sums and counts of the search server's histograms from /metrics, by
// series name; a labelled series is written name{labels}_sum and name{labels}_count.
func searchMetrics(b testing.TB, client *http.Client, base string) map[string]float64 {
	resp, err := client.Get(base + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		name, value, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		if base, labels, ok := strings.Cut(name, "{"); ok {
			for _, suffix := range []string{"_sum", "_count"} {
				if strings.HasSuffix(base, suffix) {
					name = strings.TrimSuffix(base, suffix) + "{" + labels + suffix
				}
			}
		}
		v, err := strconv.ParseFloat(value, 64)
		if err == nil {
			out[name] = v
		}
	}
	return out
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's times (100 on Linux).
const clockTicks = 100

// cpuTicksOf is the user and system CPU time the process has used, in clock ticks.
func cpuTicksOf(p *framework.Proc) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid()))
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime
}

// cpuTicks is every running machine's CPU time, by machine name.
func (a *testAlliance) cpuTicks() map[string]int64 {
	out := map[string]int64{}
	for _, n := range a.live() {
		out[n] = cpuTicksOf(a.machines[n].proc)
	}
	return out
}
