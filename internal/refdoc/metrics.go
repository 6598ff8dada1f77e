package refdoc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric is one metric family a server serves: what its /metrics says of it.
type Metric struct {
	Name, Type, Help string
	Labels           []string // the labels of its series, by name; a histogram's le is not one
}

// Metrics are the families cs serve, by name, read from a registry of their own: every
// labelled collector (a *CounterVec, *GaugeVec, *HistogramVec or *SummaryVec) is first given one
// series, its label values empty, so that it shows with its type and labels though nothing has
// been counted yet. cs must be fresh: the collectors of no server.
func Metrics(cs []prometheus.Collector) ([]Metric, error) {
	reg := prometheus.NewPedanticRegistry()
	for _, c := range cs {
		if err := oneSeries(c); err != nil {
			return nil, err
		}
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	families, err := reg.Gather()
	if err != nil {
		return nil, err
	}
	out := make([]Metric, 0, len(families))
	for _, f := range families {
		m := Metric{Name: f.GetName(), Type: strings.ToLower(f.GetType().String()), Help: f.GetHelp()}
		if len(f.GetMetric()) > 0 {
			for _, l := range f.GetMetric()[0].GetLabel() {
				m.Labels = append(m.Labels, l.GetName())
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// maxLabels is the most labels oneSeries tries a collector with.
const maxLabels = 16

// oneSeries gives a labelled collector a series, its label values empty; any other is left as
// it is.
func oneSeries(c prometheus.Collector) error {
	var with func(values ...string) error
	switch v := c.(type) {
	case *prometheus.CounterVec:
		with = func(values ...string) error { _, err := v.GetMetricWithLabelValues(values...); return err }
	case *prometheus.GaugeVec:
		with = func(values ...string) error { _, err := v.GetMetricWithLabelValues(values...); return err }
	case *prometheus.HistogramVec:
		with = func(values ...string) error { _, err := v.GetMetricWithLabelValues(values...); return err }
	case *prometheus.SummaryVec:
		with = func(values ...string) error { _, err := v.GetMetricWithLabelValues(values...); return err }
	default:
		return nil
	}
	for n := 0; n <= maxLabels; n++ { // the count of labels its Desc has: the one accepted
		if with(make([]string, n)...) == nil {
			return nil
		}
	}
	return fmt.Errorf("refdoc: a labelled collector with more than %d labels", maxLabels)
}

// MetricsSection is one server's table of metrics under a heading.
func MetricsSection(heading, intro string, ms []Metric) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "## %s\n\n", heading)
	if intro != "" {
		fmt.Fprintf(&b, "%s\n\n", intro)
	}
	b.WriteString("| Name | Type | Labels | Help |\n|---|---|---|---|\n")
	for _, m := range ms {
		labels := ""
		if len(m.Labels) > 0 {
			labels = "`" + strings.Join(m.Labels, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", m.Name, m.Type, labels, cell(m.Help))
	}
	return b.Bytes()
}
