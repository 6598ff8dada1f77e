package refdoc

import (
	"flag"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

func TestFlagsTableHasEveryFlag(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Duration("hedge-after", 0, "a `wait` | its pipe")
	fs.String("name", "", "machine name (default <host>)")
	got := string(Flags("x flags", "Generated.", fs, "FA_X_"))
	for _, want := range []string{
		"| `--hedge-after` wait | `FA_X_HEDGE_AFTER` | `0s` | a wait \\| its pipe |",
		"| `--name` string | `FA_X_NAME` |  | machine name (default \\<host>) |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
}

func TestMetricsShowLabelledCollectorsWithNothingCounted(t *testing.T) {
	ms, err := Metrics([]prometheus.Collector{
		prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "b_seconds", Help: "B."}, []string{"route", "code"}),
		prometheus.NewCounter(prometheus.CounterOpts{Name: "a_total", Help: "A."}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "c", Help: "C."}, func() float64 { return 1 }),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := string(MetricsSection("x", "", ms))
	for _, want := range []string{"| `a_total` | counter |  | A. |", "| `b_seconds` | histogram | `code`, `route` | B. |", "| `c` | gauge |  | C. |"} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
}
