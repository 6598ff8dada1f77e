package search

import "github.com/prometheus/client_golang/prometheus"

// MetricCollectors are the collectors a new search server registers on the registry its
// /metrics serves, in a registry of their own: docs/reference/metrics.md is generated from them
// (internal/refdoc). They belong to no server; nothing serves or updates them.
func MetricCollectors() []prometheus.Collector {
	return newMetrics(func() (live, stale int) { return 0, 0 }).registered
}
