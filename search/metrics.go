package search

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the server's Prometheus series, on a registry of its own (no global state).
type metrics struct {
	reg            *prometheus.Registry
	registered     []prometheus.Collector   // what reg has, for MetricCollectors
	requests       *prometheus.CounterVec   // route, code
	requestSeconds *prometheus.HistogramVec // route
	fanoutSeconds  prometheus.Histogram
	delegateErrors *prometheus.CounterVec // alliance, reason
	alternateCalls *prometheus.CounterVec // alliance
	// delegateCalls are the calls to delegates and alternates; hedgesSent those made because an
	// earlier call was slow, hedgesWon those of them whose complete answer came first,
	// hedgesRefused those the hedge budget did not allow. All by alliance.
	delegateCalls, hedgesSent, hedgesWon, hedgesRefused *prometheus.CounterVec
	// sharedCalls are searches that shared the call another search was making to the same
	// alliance for the same request (by alliance).
	sharedCalls *prometheus.CounterVec
	// refused counts searches refused with 503 because none could start within the queue timeout.
	refused prometheus.Counter
	// ordered counts the searches admitted by how they got past the turn gate (turnGate).
	ordered *prometheus.CounterVec // how
	// notModified counts alliances' answers that said the kept answer is current (by alliance);
	// keptAnswers the searches answered with a kept merged answer.
	notModified *prometheus.CounterVec
	keptAnswers prometheus.Counter
	// bookingRequests counts the answers to booking requests (reserve, get, cancel, confirm, seats).
	bookingRequests *prometheus.CounterVec // op, code
}

func newMetrics(registrations func() (live, stale int)) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "search_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status code.",
		}, []string{"route", "code"}),
		requestSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "search_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12),
		}, []string{"route"}),
		fanoutSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "search_fanout_duration_seconds",
			Help:    "Time from asking every registered delegate to having every answer or timeout.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2.5, 12),
		}),
		delegateErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "search_delegate_errors_total",
			Help: "Delegate calls that gave no usable answer, by alliance and reason (timeout, fault, transport, malformed).",
		}, []string{"alliance", "reason"}),
		alternateCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "search_alternate_calls_total",
			Help: "Calls to an alliance's alternate because its delegate (or an earlier alternate) failed, answered incomplete or was slower than the hedge delay.",
		}, []string{"alliance"}),
		bookingRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "search_booking_requests_total",
			Help: "Booking requests answered, by operation (reserve, get, cancel, confirm, seats) and status code.",
		}, []string{"op", "code"}),
	}
	perAlliance := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"alliance"})
	}
	m.delegateCalls = perAlliance("search_delegate_calls_total", "Calls to an alliance's delegate and alternates, hedges included.")
	m.hedgesSent = perAlliance("search_hedges_sent_total", "Calls to an alliance's next alternate because the calls before had not answered within the hedge delay (the delegate's 95th percentile, at most --hedge-delay).")
	m.hedgesWon = perAlliance("search_hedges_won_total", "Hedged calls whose complete answer came first.")
	m.hedgesRefused = perAlliance("search_hedges_refused_total", "Hedged calls not made because the hedge budget (a few percent of calls) was spent.")
	m.sharedCalls = perAlliance("search_shared_calls_total", "Searches that shared another search's call to the same alliance for the same request instead of asking again.")
	m.refused = prometheus.NewCounter(prometheus.CounterOpts{Name: "search_refused_total",
		Help: "Searches refused with 503 and Retry-After because they could not start within --queue-timeout (--max-searches were being answered)."})
	m.ordered = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "search_ordered_total",
		Help: "Searches by how they started (--ordered-searches): turn (one was free), waited (for a turn, first come first served), waited_out (waited the longest a turn is waited for, 100ms, then ran beside the turns), beside (the turns were taken and waiting was not worth it: they come back too slowly, or are held long)."}, []string{"how"})
	m.notModified = perAlliance("search_not_modified_total", "Answers of an alliance that said the answer this server kept is current (a conditional getTrips with IfNoneMatch), so no trips were sent.")
	m.keptAnswers = prometheus.NewCounter(prometheus.CounterOpts{Name: "search_kept_answers_total",
		Help: "Searches answered with a merged answer kept from before, every alliance having said its part is current."})
	m.registered = []prometheus.Collector{
		m.notModified, m.keptAnswers,
		m.sharedCalls, m.refused, m.ordered,
		m.delegateCalls, m.hedgesSent, m.hedgesWon, m.hedgesRefused,
		m.requests, m.requestSeconds, m.fanoutSeconds, m.delegateErrors, m.alternateCalls, m.bookingRequests,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "search_registrations",
			Help: "Delegate registrations refreshed within the TTL.",
		}, func() float64 { live, _ := registrations(); return float64(live) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "search_stale_registrations",
			Help: "Known alliances whose delegate has not refreshed its registration within the TTL (reported incomplete).",
		}, func() float64 { _, stale := registrations(); return float64(stale) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	}
	m.reg.MustRegister(m.registered...)
	return m
}
