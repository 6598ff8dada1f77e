package alliance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/flight/flightfile"
	"flightalliance/alliance/placement"
	"flightalliance/coord"
	"flightalliance/soap"
)

// Machine is one airline server.
type Machine struct {
	cfg     Config
	log     *slog.Logger
	keys    keys
	store   *store
	view    *view
	metrics *metrics
	cache   *answerCache
	clients *peerClients
	catalog *catalog

	member  atomic.Pointer[coord.Member]
	tree    *coord.Tree
	sess    atomic.Pointer[coord.Session]
	leaving atomic.Bool
	acting  atomic.Bool // acting as the alliance's delegate (registered with the search servers)

	publishMu sync.Mutex
	published struct {
		entry []byte
		roles map[string]placement.Role
	}
	republish atomic.Bool
	retries   atomic.Int64 // bumps the entry's epoch to ask for a new round

	roundMu sync.Mutex
	round   roundStatus

	listener net.Listener
	http     *http.Server
}

// New loads this machine's seller files — a bad file refuses the start, nothing half-loaded — and
// prepares the machine. Nothing is started until Run.
func New(cfg Config) (*Machine, error) {
	if err := cfg.validate(); err != nil {
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
	m := &Machine{
		cfg:     cfg,
		log:     cfg.Logger.With("machine", cfg.Name, "alliance", cfg.Alliance),
		keys:    newKeys(cfg.Alliance),
		store:   newStore(brought),
		metrics: newMetrics(),
		catalog: newCatalog(),
		clients: newPeerClients(soap.ClientOptions{Timeout: cfg.CallTimeout, MaxBody: cfg.MaxBody}),
	}
	cache, err := newAnswerCache(cfg.CacheSize)
	if err != nil {
		return nil, fmt.Errorf("cache-size: %w", err)
	}
	m.cache = cache
	m.view = newView(m.log, cache.purge)
	m.published.roles = map[string]placement.Role{}
	return m, nil
}

// startAttempts is how often a machine tries to start its etcd member before giving up.
const startAttempts = 5

// Run starts the machine — HTTP first (the other machines fetch from it during its first round),
// then the etcd member, then its entries — and serves until ctx ends. Then it leaves the alliance
// gracefully: it announces the leave, waits for the round that hands its sellers over, and exits.
func (m *Machine) Run(ctx context.Context) error {
	if err := m.listen(); err != nil {
		return err
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- m.http.Serve(m.listener) }()
	defer m.shutdownHTTP()

	start := coord.Start
	if m.cfg.ForceNewCluster {
		m.log.Warn("operator recovery: forcing a new one-member etcd cluster from this machine's data")
		start = coord.Recover
	}
	failures := 0
	for started := false; ; {
		member, err := start(ctx, m.cfg.Member)
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
			if !started && failures >= startAttempts && !errors.Is(err, coord.ErrStartTimeout) &&
				!strings.Contains(err.Error(), "address already in use") {
				return fmt.Errorf("etcd member: %w", err)
			}
			m.log.Warn("starting the etcd member failed; retrying", "attempt", failures, "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff(failures + 3)):
			}
			continue
		}
		started, failures = true, 0
		stopped, err := m.runWithMember(ctx, member, serveErr)
		member.Close()
		if !stopped {
			return err
		}
		// The member stopped under this machine — the cluster removed it while it was
		// unreachable. Start it again as the same command line would: coord moves the old data
		// aside and joins fresh; this machine comes back as a joiner with what it has.
		m.log.Warn("embedded etcd member stopped (removed from the cluster?); starting it again")
		m.store.rejoin()
		start = coord.Start
	}
}

// runWithMember runs the machine's work on one incarnation of its etcd member until ctx ends
// (then it leaves the alliance), the HTTP server fails, or the member stops (stopped is true).
func (m *Machine) runWithMember(ctx context.Context, member *coord.Member, serveErr <-chan error) (stopped bool, err error) {
	m.member.Store(member)
	m.tree = coord.NewTree(member.Client())

	work, stopWork := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		stopWork()
		wg.Wait()
	}()
	run := func(f func(context.Context)) {
		wg.Add(1)
		go func() { defer wg.Done(); f(work) }()
	}
	run(func(ctx context.Context) { m.view.follow(ctx, m.tree, m.keys.machines()) })
	run(func(ctx context.Context) { m.catalog.follow(ctx, m.tree, m.keys.catalog()) })
	registered := make(chan error, 1)
	go func() { registered <- m.register(work) }()
	select {
	case err := <-registered:
		if err != nil {
			return false, nil // work was cancelled: ctx ended or the member stopped
		}
	case <-member.Done():
		return true, nil
	case <-ctx.Done():
		return false, nil
	}
	run(m.roundLoop)
	run(m.keepRegistered)
	run(m.delegateLoop)
	m.log.Info("airline server running", "url", m.cfg.AdvertiseURL, "sellers", slices.Sorted(maps.Keys(m.cfg.Sellers)))

	select {
	case <-ctx.Done():
		m.leave()
		return false, nil
	case <-member.Done():
		return true, nil
	case err := <-serveErr:
		return false, fmt.Errorf("http server: %w", err)
	}
}

func (m *Machine) listen() error {
	ln, err := net.Listen("tcp", m.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", m.cfg.Listen, err)
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

func (m *Machine) shutdownHTTP() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = m.http.Shutdown(ctx)
}

func (m *Machine) session() *coord.Session { return m.sess.Load() }

// register opens a session and creates this machine's entry, replacing the entries of an
// earlier incarnation of the same machine (a restart before its lease expired). It retries until
// it succeeds or ctx ends: without quorum there is nothing else to do.
func (m *Machine) register(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		err := m.tryRegister(ctx)
		if err == nil {
			return nil
		}
		m.log.Warn("registering this machine in the alliance failed; retrying", "attempt", attempt+1, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff(attempt)):
		}
	}
}

func (m *Machine) tryRegister(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*m.cfg.CallTimeout)
	defer cancel()
	sess, err := m.member.Load().NewSession(ctx, m.cfg.SessionTTL)
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if err := m.removeStaleEntries(ctx); err != nil {
		_ = sess.Close(ctx)
		return err
	}
	// The catalog first: once the machine entry exists a search may count on knowing every
	// seller this machine brings.
	if err := m.recordCatalog(ctx); err != nil {
		_ = sess.Close(ctx)
		return err
	}
	m.publishMu.Lock()
	m.published.entry = nil
	m.published.roles = map[string]placement.Role{}
	m.publishMu.Unlock()
	value, _ := json.Marshal(m.entry())
	if _, err := m.tree.Create(ctx, m.keys.machine(m.cfg.Name), value, coord.Ephemeral(sess)); err != nil {
		_ = sess.Close(ctx)
		return fmt.Errorf("machine entry: %w", err)
	}
	m.publishMu.Lock()
	m.published.entry = value
	m.publishMu.Unlock()
	m.sess.Store(sess)
	return nil
}

// removeStaleEntries deletes entries an earlier incarnation of this machine left behind.
func (m *Machine) removeStaleEntries(ctx context.Context) error {
	var ops []coord.Op
	if ok, _, err := m.tree.Exists(ctx, m.keys.machine(m.cfg.Name)); err != nil {
		return err
	} else if ok {
		ops = append(ops, coord.OpDelete(m.keys.machine(m.cfg.Name)))
	}
	holders, _, err := m.tree.Descendants(ctx, m.keys.sellers())
	if err != nil {
		return err
	}
	for _, h := range holders {
		if seller, machine, ok := strings.Cut(h.Name, "/"); ok && machine == m.cfg.Name {
			ops = append(ops, coord.OpDelete(m.keys.sellerHolder(seller, m.cfg.Name)))
		}
	}
	if len(ops) == 0 {
		return nil
	}
	m.log.Info("removing entries of an earlier incarnation of this machine", "entries", len(ops))
	_, err = m.tree.Multi(ctx, ops...)
	return err
}

// keepRegistered re-registers this machine when its session is lost (a pause longer than its
// lease, a partition): the alliance has repaired around it meanwhile, so it comes back as a
// joiner bringing its own sellers, and keeps serving the copies it has until a round reassigns.
func (m *Machine) keepRegistered(ctx context.Context) {
	for {
		sess := m.session()
		select {
		case <-ctx.Done():
			return
		case <-sess.Done():
		}
		if ctx.Err() != nil || m.leaving.Load() {
			return // leave() closed the session on purpose
		}
		m.log.Warn("session lost: rejoining the alliance as a new member")
		m.store.rejoin()
		if err := m.register(ctx); err != nil {
			return
		}
	}
}

// roundLoop runs a placement round for every membership change. A round that fails without the
// membership moving on (an etcd timeout, a source that cannot send) would never be retried by the
// others, so after a while this machine asks for a new round by bumping its entry's epoch.
func (m *Machine) roundLoop(ctx context.Context) {
	var handled int64
	var retryAt time.Time
	for ctx.Err() == nil {
		changed := m.view.wait()
		rev := m.view.membership()
		if rev > handled && m.inView() {
			start := time.Now()
			out := m.runRound(ctx, rev)
			m.recordRound(out, time.Since(start))
			switch {
			case out.Committed && out.Err == nil:
				handled, retryAt = rev, time.Time{}
			case errors.Is(out.Err, errSuperseded):
				continue
			default:
				m.log.Warn("round failed", "round", rev, "committed_elsewhere", out.Committed, "err", out.Err)
				handled, retryAt = rev, time.Now().Add(3*m.cfg.SessionTTL)
			}
		}
		if m.view.takeRelisted() && m.requestRound(ctx) != nil {
			retryAt = time.Now().Add(time.Second)
		}
		if !retryAt.IsZero() && time.Now().After(retryAt) {
			switch {
			case m.view.membership() > handled:
				retryAt = time.Time{}
			case m.requestRound(ctx) == nil:
				retryAt = time.Time{}
			default:
				retryAt = time.Now().Add(time.Second)
			}
		}
		if m.republish.Load() {
			if err := m.publish(ctx); err == nil {
				m.republish.Store(false)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-time.After(time.Second):
		}
	}
}

// requestRound bumps this machine's entry so that every machine sees a membership change and
// starts a new round.
func (m *Machine) requestRound(ctx context.Context) error {
	m.retries.Add(1)
	if err := m.publish(ctx); err != nil {
		m.retries.Add(-1)
		m.log.Warn("asking for a new round failed", "err", err)
		return err
	}
	m.log.Info("asked for a new round")
	return nil
}

// inView reports whether this machine's own entry is in the view (so it is a participant).
func (m *Machine) inView() bool {
	_, ok := m.view.url(m.cfg.Name)
	return ok
}

// leave hands this machine's sellers over before it exits: it announces the leave in its entry,
// waits for the round that moves its copies to commit, then removes its entries and its etcd
// membership. It gives up after LeaveTimeout: the backups still hold every seller.
func (m *Machine) leave() {
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.LeaveTimeout)
	defer cancel()
	m.log.Info("leaving the alliance")
	m.leaving.Store(true)
	if m.othersStay() && !m.store.isJoining() {
		if err := m.publish(ctx); err != nil {
			m.log.Warn("announcing the leave failed", "err", err)
		}
		// Without quorum no round can commit: the others are going too, or this machine is cut
		// off; either way the backups hold every seller it has.
		for ctx.Err() == nil && !m.handedOver() && m.othersStay() && m.member.Load().Status(ctx).HasQuorum {
			select {
			case <-ctx.Done():
			case <-m.view.wait():
			case <-time.After(200 * time.Millisecond):
			}
		}
		if ctx.Err() != nil {
			m.log.Warn("leave timed out before the hand-over round committed; the backups take over")
		}
	} else {
		m.log.Info("nothing to hand over (no other machine stays, or this one holds nothing yet)")
		if m.view.delegate() == m.cfg.Name {
			m.unregisterEverywhere(ctx)
		}
	}
	if sess := m.session(); sess != nil {
		_ = sess.Close(ctx)
	}
	// The etcd member leaves the cluster when others stay. When the whole alliance is shutting
	// down it is only stopped (Run closes it): its data stays, so the same command lines start
	// the alliance again, and no member waits for a cluster too busy shutting down to remove it.
	if m.othersStay() {
		memberCtx, cancelMember := context.WithTimeout(ctx, 10*time.Second)
		defer cancelMember()
		if err := m.member.Load().Leave(memberCtx); err != nil {
			m.log.Warn("leaving the etcd cluster failed; stopping the member without leaving", "err", err)
		}
	}
	m.log.Info("left the alliance")
}

// othersStay reports whether some other live machine is not leaving: someone to hand over to.
func (m *Machine) othersStay() bool {
	for _, e := range m.view.entries() {
		if e.Name != m.cfg.Name && !e.Leaving {
			return true
		}
	}
	return false
}

// handedOver reports whether a committed round has taken every seller from this machine.
func (m *Machine) handedOver() bool {
	p, b := m.store.assignment()
	return len(p) == 0 && len(b) == 0 && !m.store.isJoining()
}

// knownSellers is every seller of the alliance: in its catalog, seen held, or brought by this
// machine, sorted.
func (m *Machine) knownSellers() []string {
	set := map[string]bool{}
	for _, s := range m.store.broughtCodes() {
		set[s] = true
	}
	for _, s := range m.catalog.list() {
		set[s] = true
	}
	m.view.mu.RLock()
	for s := range m.view.lastHolders {
		set[s] = true
	}
	m.view.mu.RUnlock()
	return slices.Sorted(maps.Keys(set))
}
