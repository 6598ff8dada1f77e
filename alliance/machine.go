package alliance

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/flight/flightfile"
	"flightalliance/alliance/gather"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/placement"
	"flightalliance/coord"
	"flightalliance/coord/member"
	"flightalliance/hedge"
	"flightalliance/soap"
)

// Machine is one airline server. Its fields are grouped by concern, as the package comment
// groups its files.
type Machine struct {
	cfg  Config
	log  *slog.Logger
	keys keys     // the alliance's paths in the tree
	sec  security // token and TLS

	// membership: the etcd member of the current incarnation, its tree and session
	member  atomic.Pointer[member.Member]
	treeNow atomic.Pointer[coord.Tree] // the tree of the member's current incarnation
	sess    atomic.Pointer[coord.Session]
	leaving atomic.Bool

	// the view of the alliance, and every seller it was ever given
	view    *view
	catalog *catalog

	// copies: the sellers' data this machine has, the clients that fetch them, and the entries
	// that publish them
	copies    *copies
	clients   *peerClients
	publishMu sync.Mutex
	published struct {
		entry []byte
		roles map[string]placement.Role
	}
	republish atomic.Bool

	// rounds
	roundEpoch atomic.Int64 // the entry's epoch: bumped to ask every machine for a new round
	replicas   atomic.Int32 // K, as the alliance's settings last said (0 before they were read)
	roundMu    sync.Mutex
	round      roundStatus

	// the delegate and the services
	acting   atomic.Bool     // acting as the alliance's delegate (registered with the search servers)
	search   *gather.Search  // getTrips, while this machine is the delegate
	seats    *ledger.Seats   // booked seats, followed from etcd
	holds    *ledger.Holds   // open holds, followed from etcd
	ledger   *ledger.Ledger  // bookings: etcd transactions
	bookings *ledger.Service // the booking operations

	// what the machine shows, and where
	metrics  *metrics
	listener net.Listener
	http     *http.Server
}

// New loads this machine's seller files — a bad file refuses the start, nothing half-loaded — and
// prepares the machine. Nothing is started until Run.
func New(cfg Config) (*Machine, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	brought := map[string]*flight.Seller{}
	for _, code := range slices.Sorted(maps.Keys(cfg.Sellers)) {
		if !flight.ValidSeller(code) {
			return nil, fmt.Errorf("seller: %q is not a seller code", code)
		}
		sel, err := flightfile.LoadSeller(cfg.Sellers[code], code)
		if err != nil {
			return nil, fmt.Errorf("seller %s: %w", code, err)
		}
		brought[code] = sel
	}
	sec, err := newSecurity(cfg.Token, cfg.AlsoAccepted, cfg.TLS)
	if err != nil {
		return nil, err
	}
	m := &Machine{
		sec:     sec,
		cfg:     cfg,
		log:     cfg.Logger.With("machine", cfg.Name, "alliance", cfg.Alliance),
		keys:    newKeys(cfg.Alliance),
		copies:  newCopies(brought),
		metrics: newMetrics(),
		seats:   ledger.NewSeats(cfg.Alliance),
		holds:   ledger.NewHolds(cfg.Alliance, time.Now),
		clients: newPeerClients(soap.ClientOptions{Timeout: cfg.CallTimeout, MaxBody: cfg.MaxBody,
			HTTPClient: sec.client(cfg.CallTimeout), Tokens: sec.tokens}),
	}
	cacheSize := cfg.CacheSize
	if cfg.CacheBytes < 0 {
		cacheSize = -1
	}
	m.search = gather.New(gather.Config{Alliance: cfg.Alliance, MinConnection: cfg.MinConnection,
		Hedge:     hedge.NewPolicy(hedge.Settings{Max: cfg.HedgeAfter, FreeAfter: cfg.CallTimeout / 2}),
		CacheSize: cacheSize, CacheBytes: cfg.CacheBytes, FlightsCache: cfg.FlightsCache}, searchAlliance{m}, m.seats,
		gather.Metrics{Seconds: m.metrics.searchSeconds, CacheHits: m.metrics.cacheHits,
			CacheMisses: m.metrics.cacheMisses, Hedges: m.metrics.hedges, HolderCalls: m.metrics.holderCalls,
			HedgesSent: m.metrics.hedgesSent, HedgesWon: m.metrics.hedgesWon, HedgesRefused: m.metrics.hedgesRefused,
			SharedComputations: m.metrics.sharedSearch, NotModified: m.metrics.notModified,
			FlightListHits: m.metrics.flightListHits, FlightListMisses: m.metrics.flightListMisses})
	m.metrics.watchCache(m.search)
	m.cfg.Member.OnRemoval = chainRemoval(m.metrics.countRemoval, cfg.Member.OnRemoval)
	m.view = newView(m.log, m.search.Purge)
	m.catalog = newCatalog(m.search.Purge)
	m.published.roles = map[string]placement.Role{}
	m.ledger = ledger.New(cfg.Alliance, func() *clientv3.Client { return m.member.Load().Client() }, time.Now)
	m.bookings = ledger.NewService(m.ledger, cfg.Alliance, cfg.MinConnection, bookingFlights{m}, m.holds, m.readyToBook)
	return m, nil
}

// readyToBook reports whether this machine has an etcd member and has read the alliance's
// sellers and machines: until then the booking service refuses requests, nothing done.
func (m *Machine) readyToBook() bool {
	return m.member.Load() != nil && m.catalog.isListed() && m.view.isListed()
}

// lineRank is this machine's place among the live machines by name (0 for the delegate, -1 when
// it is not among them): the sweep of expired holds takes turns in this order.
func (m *Machine) lineRank() int {
	for i, e := range m.view.entries() {
		if e.Name == m.cfg.Name {
			return i
		}
	}
	return -1
}

// tree is the coordination tree of the member's current incarnation (replaced when the member
// is started again).
func (m *Machine) tree() *coord.Tree { return m.treeNow.Load() }

// startAttempts is how often a machine tries to start its etcd member before giving up.
const startAttempts = 5

// Run starts the machine — HTTP first (the other machines fetch from it during its first round),
// then the etcd member, then its entries — and serves until ctx ends. Then it leaves the alliance
// gracefully: it announces the leave, waits for the round that hands its sellers over, and exits.
func (m *Machine) Run(ctx context.Context) error {
	if err := m.listen(); err != nil {
		return err
	}
	// Serve's goroutine is Run's: Run shuts the server down and waits for Serve to return before
	// it returns, so no listener or accept loop outlives the machine (a restart in-process, a
	// test). serveErr is buffered: Serve's end never waits for a reader, and runWithMember is the
	// only one (a server that fails while the machine runs ends it).
	var serving sync.WaitGroup
	serveErr := make(chan error, 1)
	serving.Go(func() { serveErr <- m.http.Serve(m.listener) })
	defer func() {
		m.shutdownHTTP()
		serving.Wait()
	}()

	start := member.Start
	if m.cfg.ForceNewCluster {
		m.log.Warn("operator recovery: forcing a new one-member etcd cluster from this machine's data")
		start = member.Recover
	}
	failures := 0
	for started := false; ; {
		mb, err := start(ctx, m.cfg.Member)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			failures++
			// Waiting for quorum is what the control plane does when it has none; a listener of
			// an abandoned attempt may linger for a while; joining can fail on a race with another
			// membership change (etcd then refuses the member list it was given); a machine coming
			// back from a partition can be removed again before it catches up. All of these pass:
			// try again. Only a machine that never started gives up on other errors, after a few
			// attempts, so that a wrong command line fails visibly.
			if !started && failures >= startAttempts && !errors.Is(err, member.ErrStartTimeout) &&
				!errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("etcd member: %w", err)
			}
			m.log.Warn("starting the etcd member failed; retrying", "attempt", failures, "err", err)
			if !waitBackoff(ctx, failures+3) {
				return nil
			}
			continue
		}
		started, failures = true, 0
		stopped, err := m.runWithMember(ctx, mb, serveErr)
		mb.Close()
		if !stopped {
			return err
		}
		// The member stopped under this machine — the cluster removed it while it was
		// unreachable. Start it again as the same command line would: coord moves the old data
		// aside and joins fresh; this machine comes back as a joiner with what it has.
		m.log.Warn("embedded etcd member stopped (removed from the cluster?); starting it again")
		m.copies.rejoin()
		start = member.Start
	}
}

func (m *Machine) listen() error {
	ln, err := net.Listen("tcp", m.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", m.cfg.Listen, err)
	}
	if m.sec.serverTLS != nil {
		ln = tls.NewListener(ln, m.sec.serverTLS)
	}
	m.listener = ln
	m.http = &http.Server{
		Handler:           m.routes(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	return nil
}

// shutdownHTTP stops the HTTP server: Shutdown closes the listener (Serve returns at once) and
// waits up to 5 s for the requests in flight. If some are still running then, the log says so and
// Close cuts their connections, rather than leaving them to finish unseen after Run returned.
func (m *Machine) shutdownHTTP() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := m.http.Shutdown(ctx); err != nil {
		m.log.Warn("HTTP requests still running at shutdown; closing their connections", "err", err)
		if err := m.http.Close(); err != nil {
			m.log.Warn("closing the HTTP server failed", "err", err)
		}
	}
}
