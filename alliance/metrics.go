package alliance

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"flightalliance/alliance/gather"
	"flightalliance/coord/member"
)

// metricsNamespace prefixes every metric of the airline server.
const metricsNamespace = "flightalliance_airline"

// metrics are this machine's Prometheus metrics, on a registry of its own (no globals).
type metrics struct {
	registry      *prometheus.Registry
	registered    []prometheus.Collector // what registry has, for MetricCollectors
	rounds        *prometheus.CounterVec
	roundSeconds  prometheus.Histogram
	transfers     prometheus.Counter
	flightsMoved  prometheus.Counter
	pagesSent     prometheus.Counter
	pagesFetched  prometheus.Counter
	searchSeconds *prometheus.HistogramVec
	cacheHits     prometheus.Counter
	cacheMisses   prometheus.Counter
	// flightListHits and flightListMisses: per seller of a computed search, its flights kept
	// by the delegate or asked of a holder.
	flightListHits, flightListMisses prometheus.Counter
	holderErrors                     prometheus.Counter
	departedAsks                     prometheus.Counter
	hedges                           prometheus.Counter
	holderCalls                      prometheus.Counter
	hedgesSent                       prometheus.Counter
	hedgesWon                        prometheus.Counter
	hedgesRefused                    prometheus.Counter
	sharedSearch                     prometheus.Counter
	notModified                      prometheus.Counter
	registrations                    prometheus.Counter
	delegate                         prometheus.Gauge
	primaries                        prometheus.Gauge
	backups                          prometheus.Gauge
	quorum                           prometheus.Gauge
	bookings                         *prometheus.CounterVec
	removals                         *prometheus.CounterVec
}

func newMetrics() *metrics {
	const ns = metricsNamespace
	m := &metrics{
		registry: prometheus.NewRegistry(),
		rounds: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "rounds_total",
			Help: "Placement rounds this machine took part in, by outcome (committed, superseded, failed)."}, []string{"outcome"}),
		roundSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "round_duration_seconds",
			Help: "Duration of committed placement rounds.", Buckets: prometheus.ExponentialBuckets(0.01, 2, 14)}),
		transfers: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "transfers_total",
			Help: "Seller copies fetched from other machines in committed rounds."}),
		flightsMoved: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "transferred_flights_total",
			Help: "Flights received in committed transfers."}),
		pagesSent: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "seller_pages_sent_total",
			Help: "sendPrimarySeller/sendBackupSeller pages served."}),
		pagesFetched: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "seller_pages_fetched_total",
			Help: "Seller pages fetched from other machines."}),
		searchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "search_duration_seconds",
			Help: "getTrips latency on the delegate, by cache result.", Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18)}, []string{"cache"}),
		cacheHits: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "cache_hits_total",
			Help: "getTrips answers served from the cache."}),
		cacheMisses: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "cache_misses_total",
			Help: "getTrips answers computed."}),
		flightListHits: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "flight_list_hits_total",
			Help: "Sellers of computed searches whose flights out of the source and into the destination the delegate kept (no holder asked)."}),
		flightListMisses: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "flight_list_misses_total",
			Help: "Sellers of computed searches whose flights the delegate asked of a holder."}),
		holderErrors: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "holder_errors_total",
			Help: "Holders that did not answer the delegate (it then asked the next holder)."}),
		departedAsks: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "departed_holder_calls_total",
			Help: "Calls the delegate made, for sellers no live holder answered for, to machines whose entry vanished lately (their session ended; they may still serve their copies), naming the versions their last entry gave."}),
		hedges: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "hedged_sellers_total",
			Help: "Sellers asked of their next holder because the first had not answered within the hedge delay."}),
		holderCalls: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "holder_calls_total",
			Help: "Calls the delegate made to holders for a search's flights, hedges included."}),
		hedgesSent: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "hedges_sent_total",
			Help: "Hedged holder calls: a further holder asked while a slower one was still pending."}),
		hedgesWon: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "hedges_won_total",
			Help: "Hedged holder calls whose answer came first for at least one seller."}),
		hedgesRefused: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "hedges_refused_total",
			Help: "Hedged holder calls not made because the hedge budget was spent (a few percent of calls)."}),
		sharedSearch: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "shared_searches_total",
			Help: "getTrips answers that waited for the computation another call had started for the same query, instead of gathering again."}),
		notModified: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "not_modified_total",
			Help: "getTrips answers that told the caller (IfNoneMatch) its copy is current, without trips."}),
		registrations: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "registrations_total",
			Help: "Successful registrations with search servers."}),
		delegate: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "delegate",
			Help: "1 while this machine is the alliance's delegate."}),
		primaries: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "primaries",
			Help: "Sellers this machine holds as PRIMARY."}),
		backups: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "backups",
			Help: "Sellers this machine holds as BACKUP."}),
		quorum: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "etcd_quorum",
			Help: "1 while the embedded etcd member sees a leader."}),
		bookings: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "bookings_total",
			Help: "Booking operations taken by this machine (reserve, cancel, confirm, getBooking, getSeats, expire), by result (ok or the fault kind)."}, []string{"op", "result"}),
		removals: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "member_removals_total",
			Help: "etcd members this machine removed from the alliance, by reason: unreachable (its reconciler could not probe the member for the dead-member grace), stale (this machine's joiner removed its own former member), leave (this machine left cleanly). The last removal of each member is recorded in /coord/removals/<member> and shown in GET /status."}, []string{"reason"}),
	}
	for _, r := range []member.RemovalReason{member.RemovedUnreachable, member.RemovedStale, member.RemovedLeave} {
		m.removals.WithLabelValues(string(r)) // every reason from 0, so a rate or an alert needs no first removal
	}
	m.register(m.rounds, m.roundSeconds, m.transfers, m.flightsMoved, m.pagesSent, m.pagesFetched,
		m.searchSeconds, m.cacheHits, m.cacheMisses, m.flightListHits, m.flightListMisses, m.holderErrors, m.departedAsks, m.hedges, m.holderCalls, m.hedgesSent, m.hedgesWon, m.hedgesRefused, m.sharedSearch, m.notModified,
		m.registrations, m.delegate,
		m.primaries, m.backups, m.quorum, m.bookings, m.removals,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watchCache shows what the delegate's kept answers cost and how many there are, read at each
// scrape.
func (m *metrics) watchCache(s *gather.Search) {
	m.register(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: metricsNamespace, Name: "cache_bytes",
			Help: "Bytes the answers the delegate keeps may take, as --cache-mib counts them: 16 KiB an answer, 800 a trip, 200 a distinct flight."},
			func() float64 { b, _ := s.CacheUsage(); return float64(b) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: metricsNamespace, Name: "cache_answers",
			Help: "Answers the delegate keeps (--cache-mib bounds what they take)."},
			func() float64 { _, n := s.CacheUsage(); return float64(n) }))
}

// register registers cs on the registry, and keeps them.
func (m *metrics) register(cs ...prometheus.Collector) {
	m.registry.MustRegister(cs...)
	m.registered = append(m.registered, cs...)
}

// countRemoval counts a member removal this machine's etcd member made (member.Config.OnRemoval).
func (m *metrics) countRemoval(r member.Removal) {
	m.removals.WithLabelValues(string(r.Reason)).Inc()
}

// boolGauge is a gauge's value for a condition: 1 while it holds.
func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
