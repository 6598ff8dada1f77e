package alliance

import (
	"github.com/prometheus/client_golang/prometheus"

	"flightalliance/alliance/gather"
)

// MetricCollectors are the collectors a new machine registers on the registry its /metrics
// serves, in a registry of their own: docs/reference/metrics.md is generated from them
// (internal/refdoc). They belong to no machine; nothing serves or updates them.
func MetricCollectors() []prometheus.Collector {
	m := newMetrics()
	m.watchCache(gather.New(gather.Config{}, nil, nil, gather.Metrics{}))
	return m.registered
}
