package gather

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/trip"
	"flightalliance/hedge"
	"flightalliance/soap"
)

// Alliance is what the search needs of its machine.
type Alliance interface {
	// Ready reports whether the machine has read the alliance's machines, catalog and booked
	// seats once: before, it does not know every seller, and an answer could look complete while
	// missing some, or show seats already sold.
	Ready() bool
	// Sellers is every seller the alliance knows, sorted.
	Sellers() []string
	// Candidates are the machines to ask for a seller's flights, in order; the first alike of
	// them have the same data (the seller's current version), so that a search may ask any of
	// them first (fewestCalls), and the others only after them.
	Candidates(seller string) (machines []string, alike int)
	// Zone is the failure domain a machine runs in (its name when it names none).
	Zone(machine string) string
	// Ask asks one machine for the flights of sellers out of q.Src (src, when sides has FromSrc)
	// and into q.Dst (dst, when sides has ToDst) on q.Date; covered names the sellers it answered
	// for on every side asked (none when it failed). heard says whether the machine answered at
	// all, a refusal included, as against none (no call made, its deadline passed, a connection
	// refused): only an answer shows the hedge policy that the machine is alive (hedge.Heard).
	Ask(ctx context.Context, machine string, q trip.Query, sides Sides, sellers []string) (src, dst []flight.Flight, covered []string, heard bool)
}

// Config is a search's settings.
type Config struct {
	Alliance      string        // the alliance's name, on every leg
	MinConnection time.Duration // the shortest connection a trip may have
	Hedge         *hedge.Policy // when to ask a seller's next holder, and how often it may
	CacheSize     int           // whole answers cached; 0 disables the cache
	CacheBytes    int64         // the most the cached answers may take (listCost); ≤ 0: no bound but CacheSize
	// FlightsCache is the most flights the holders sent that are kept per seller and airport
	// (flightCache); 0 keeps none, so that every search asks the holders.
	FlightsCache int
}

// Metrics are the search's instruments (registered by the machine).
type Metrics struct {
	Seconds     *prometheus.HistogramVec // getTrips latency, by cache result ("hit", "miss")
	CacheHits   prometheus.Counter
	CacheMisses prometheus.Counter
	Hedges      prometheus.Counter // sellers asked of a further holder on a hedge
	HolderCalls prometheus.Counter // calls to holders, hedges included
	HedgesSent  prometheus.Counter // hedged calls made
	HedgesWon   prometheus.Counter // hedged calls that answered first for a seller
	// HedgesRefused are hedged calls the policy's budget refused.
	HedgesRefused prometheus.Counter
	// SharedComputations are getTrips answers that waited for a computation another call had
	// started for the same query instead of computing it again.
	SharedComputations prometheus.Counter
	// NotModified are getTrips answers that told the caller its copy (IfNoneMatch) is current.
	NotModified prometheus.Counter
	// FlightListHits and FlightListMisses count, per seller of a computed search, whether the
	// flight cache kept both its lists (no holder asked for it) or not.
	FlightListHits, FlightListMisses prometheus.Counter
}

// flightLists counts a computed search's sellers found in the flight cache and not.
func (m Metrics) flightLists(hits, misses int) {
	if m.FlightListHits != nil && hits > 0 {
		m.FlightListHits.Add(float64(hits))
	}
	if m.FlightListMisses != nil && misses > 0 {
		m.FlightListMisses.Add(float64(misses))
	}
}

// notModified counts an answer that told its caller its copy is current.
func (m Metrics) notModified() {
	if m.NotModified != nil {
		m.NotModified.Inc()
	}
}

// shared counts an answer that shared another call's computation.
func (m Metrics) shared() {
	if m.SharedComputations != nil {
		m.SharedComputations.Inc()
	}
}

// Search answers getTrips for the whole alliance.
type Search struct {
	cfg      Config
	alliance Alliance
	seats    *ledger.Seats
	cache    *answerCache
	flights  *flightCache       // the holders' lists per seller and airport
	once     singleflight.Group // concurrent computations of one query, shared (computeOnce)
	etags    etagger            // names complete answers for conditional requests
	metrics  Metrics
}

// New returns the search of an alliance; seats are the booked-seat counters it shows seats left
// from.
func New(cfg Config, alliance Alliance, seats *ledger.Seats, metrics Metrics) *Search {
	return &Search{cfg: cfg, alliance: alliance, seats: seats, cache: newAnswerCache(cfg.CacheSize, cfg.CacheBytes), flights: newFlightCache(cfg.FlightsCache),
		metrics: metrics, etags: newEtagger()}
}

// CacheUsage is what the answers the search keeps cost in memory (costOf, as --cache-mib counts
// them), and how many there are.
func (s *Search) CacheUsage() (bytes int64, answers int) { return s.cache.usage() }

// Purge empties the caches: the alliance's data may have changed (a machine joined, an
// assignment or a seller's version changed). An answer computed, or a list asked for, before is
// not cached after.
func (s *Search) Purge() {
	s.flights.purge()
	s.cache.purge()
}

// GetTrips is SellerService.getTrips: the trips of the query from every seller, sorted,
// filtered and cut as the request's controls ask, each leg showing the seats left now. A seller
// no holder answered for is named in MissingSellers. A bad field gets a Client fault naming it.
func (s *Search) GetTrips(ctx context.Context, req *soap.GetTripsRequest) (*soap.GetTripsResponse, error) {
	start := time.Now()
	q, ctl, err := parseQuery(req, s.cfg.MinConnection)
	if err != nil {
		return nil, err
	}
	if !s.alliance.Ready() {
		return nil, soap.ServerFault("not ready: this machine has not read the alliance's state yet")
	}
	key := cacheKey(q)
	first := firstPage(ctl)
	list, gen, hit := s.cache.get(key)
	if !hit && first {
		list, gen, hit = s.cache.get(firstKey(key))
	}
	var missing []string
	kept := hit // the list is in the cache: worth making its whole SOAP form once, for later pages
	if hit {
		s.metrics.CacheHits.Inc()
	} else {
		if s.cache.enabled() {
			s.metrics.CacheMisses.Inc()
		}
		c, err := s.computeOnce(ctx, q, key, gen, first)
		if err != nil {
			return nil, err
		}
		list, missing, kept = c.list, c.missing, c.kept
	}
	var resp *soap.GetTripsResponse
	if len(missing) == 0 && req.IfNoneMatch != "" && req.IfNoneMatch == s.etags.etag(req, gen, s.seats.Version()) {
		// The caller's copy is this answer: the same list, the same seats left, the same page.
		resp = &soap.GetTripsResponse{Alliance: s.cfg.Alliance, Complete: true, ETag: req.IfNoneMatch, NotModified: true}
		s.metrics.notModified()
	} else {
		resp = &soap.GetTripsResponse{Alliance: s.cfg.Alliance, Complete: len(missing) == 0, MissingSellers: missing}
		cached := kept && len(missing) == 0
		var seatsVersion uint64
		if req.ShareLegs {
			var page sharedTrips
			page, resp.Total = list.sharedPage(ctl, s.cfg.Alliance, cached)
			resp.Trips = page.trips
			resp.SharedLegs, seatsVersion = legsWithSeatsLeft(page.legs, s.seats)
		} else {
			var page []soap.Trip
			page, resp.Total = list.page(ctl, s.cfg.Alliance, cached)
			resp.Trips, seatsVersion = withSeatsLeft(page, s.seats)
		}
		if resp.Complete {
			resp.ETag = s.etags.etag(req, gen, seatsVersion)
		}
	}
	result := "miss"
	if hit {
		result = "hit"
	}
	s.metrics.Seconds.WithLabelValues(result).Observe(time.Since(start).Seconds())
	return resp, nil
}
