package member

import (
	"context"
	"fmt"
	"go.etcd.io/etcd/client/pkg/v3/types"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"sort"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
)

// Member is a running embedded etcd member with its client and background
// loops (quorum monitor, endpoint sync, reconciler, and the recording of its
// zone).
type Member struct {
	cfg  Config
	log  *slog.Logger
	etcd *embed.Etcd
	id   uint64
	cli  *clientv3.Client

	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	quorum    bool
	subs      []chan bool
	endpoints []string
	closed    bool

	closeOnce sync.Once
	closeErr  error
}

// MemberInfo is one member of the cluster as this member sees it.
type MemberInfo struct {
	Name       string
	ID         uint64
	PeerURLs   []string
	ClientURLs []string
	IsLearner  bool
}

// Status is this member's local view of the cluster.
type Status struct {
	Name      string
	ID        uint64
	IsLeader  bool
	IsLearner bool
	Leader    string // the leader's name; "" without quorum
	LeaderID  uint64
	HasQuorum bool         // a leader is known
	Members   []MemberInfo // sorted by name
	// AppliedIndex is the last raft entry this member applied. Membership changes are raft
	// entries: of two members' Members, the one with the higher AppliedIndex is as new as the
	// other or newer (a member just resumed or healed lists what it knew when it stopped
	// hearing from the others).
	AppliedIndex uint64
}

// newMember wraps a ready etcd server and starts the background loops.
func newMember(cfg Config, e *embed.Etcd) (*Member, error) {
	m := &Member{cfg: cfg, log: cfg.Logger, etcd: e, id: uint64(e.Server.MemberID()), quorum: true}
	m.endpoints = m.wantEndpoints()
	cli, err := newClient(cfg, m.endpoints)
	if err != nil {
		closeEtcd(e, 10*time.Second)
		return nil, fmt.Errorf("coord: client for member %q: %w", cfg.Name, err)
	}
	m.cli = cli
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	m.wg.Add(3)
	go m.monitor(ctx)
	go m.reconcile(ctx)
	go m.recordZone(ctx)
	m.log.Info("coord member running", "id", fmt.Sprintf("%x", m.id), "learner", m.isLearner(),
		"endpoints", m.endpoints)
	return m, nil
}

// Client is connected to this member and the other voters it knows (a
// learner refuses writes and linearizable reads, so learners are left out,
// this member too while it is one). The endpoints follow membership
// changes. Closed by Close.
func (m *Member) Client() *clientv3.Client { return m.cli }

// ID is this member's etcd ID.
func (m *Member) ID() uint64 { return m.id }

// Name is this member's name.
func (m *Member) Name() string { return m.cfg.Name }

// Done is closed when the embedded server stops (Close, Leave, removal by
// the cluster, or a fatal error).
func (m *Member) Done() <-chan struct{} { return m.etcd.Server.StopNotify() }

// Status returns this member's local view: it answers without quorum.
func (m *Member) Status(ctx context.Context) Status {
	s := m.etcd.Server
	lead := uint64(s.Leader())
	st := Status{Name: m.cfg.Name, ID: m.id, IsLeader: lead == m.id, IsLearner: m.isLearner(),
		LeaderID: lead, HasQuorum: lead != 0, AppliedIndex: s.AppliedIndex()}
	select {
	case <-s.StopNotify():
		st.IsLeader, st.HasQuorum, st.LeaderID = false, false, 0
	default:
	}
	for _, mb := range s.Cluster().Members() {
		st.Members = append(st.Members, MemberInfo{Name: mb.Name, ID: uint64(mb.ID),
			PeerURLs: slices.Clone(mb.PeerURLs), ClientURLs: slices.Clone(mb.ClientURLs), IsLearner: mb.IsLearner})
		if uint64(mb.ID) == st.LeaderID {
			st.Leader = mb.Name
		}
	}
	sort.Slice(st.Members, func(i, j int) bool { return st.Members[i].Name < st.Members[j].Name })
	return st
}

// isLearner reports whether this member is a learner. Unlike etcd's own IsLearner it does not
// panic once the cluster has removed this member (it is then no learner).
func (m *Member) isLearner() bool {
	if mb := m.etcd.Server.Cluster().Member(types.ID(m.id)); mb != nil {
		return mb.IsLearner
	}
	return false
}

// QuorumChanges returns a new subscription to quorum changes: true when a
// leader is known again, false when it is lost. Only the latest state is
// kept for a slow reader (the channel holds one value). Closed by Close.
func (m *Member) QuorumChanges() <-chan bool {
	ch := make(chan bool, 1)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		close(ch)
		return ch
	}
	m.subs = append(m.subs, ch)
	return ch
}

// monitor polls the raft leader every tick to report quorum changes, and
// keeps the client's endpoints on the current voters.
func (m *Member) monitor(ctx context.Context) {
	defer m.wg.Done()
	tick := time.NewTicker(m.cfg.tick())
	defer tick.Stop()
	lastSync := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.etcd.Server.StopNotify():
			m.setQuorum(false)
			m.log.Warn("coord member's etcd server stopped")
			return
		case <-tick.C:
		}
		m.setQuorum(m.etcd.Server.Leader() != 0)
		if time.Since(lastSync) >= 10*m.cfg.tick() {
			lastSync = time.Now()
			m.syncEndpoints()
		}
	}
}

func (m *Member) setQuorum(q bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if q == m.quorum {
		return
	}
	m.quorum = q
	if q {
		m.log.Info("coord quorum regained", "leader", fmt.Sprintf("%x", m.etcd.Server.Leader()))
	} else {
		m.log.Warn("coord quorum lost: waiting for a leader (an operator may run Recover)")
	}
	for _, ch := range m.subs {
		select {
		case <-ch: // drop the stale value: only the latest state matters
		default:
		}
		ch <- q
	}
}

// wantEndpoints are the endpoints of the member's client: only its own
// client URL while it is a voter — the embedded member forwards to the
// leader itself, and a client that also round-robins over the other members
// hangs on a paused one (SIGSTOP, a stuck VM) until its keep-alive notices,
// long enough to lose a 2–3 s lease — and the started voters' client URLs
// while it is a learner, which refuses writes.
func (m *Member) wantEndpoints() []string {
	own := ownClientURL(m.cfg)
	if !m.isLearner() {
		return []string{own}
	}
	var eps []string
	for _, mb := range m.etcd.Server.Cluster().Members() {
		if mb.IsLearner || mb.Name == "" {
			continue
		}
		for _, u := range mb.ClientURLs {
			if u != m.cfg.ClientURL {
				eps = append(eps, u)
			}
		}
	}
	sort.Strings(eps)
	if len(eps) == 0 {
		eps = []string{own}
	}
	return eps
}

// ownClientURL is where the member's own client reaches it: straight at its listen address, not
// through a proxy in front of it — unless that is a wildcard (0.0.0.0, [::]), no address to dial
// and not the name its certificate has, when it is the advertised client URL.
func ownClientURL(c Config) string {
	if u, err := url.Parse(c.ListenClientURL); err == nil {
		if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() {
			return c.ClientURL
		}
	}
	return c.ListenClientURL
}

func (m *Member) syncEndpoints() {
	want := m.wantEndpoints()
	m.mu.Lock()
	same := slices.Equal(want, m.endpoints)
	m.endpoints = want
	m.mu.Unlock()
	if !same {
		m.log.Info("coord client endpoints changed", "endpoints", want)
		m.cli.SetEndpoints(want...)
	}
}

// Close stops the member without leaving the cluster: its data dir stays,
// and the same Config restarts it. It never blocks for long: etcd's own
// shutdown is abandoned after 20 seconds.
func (m *Member) Close() error {
	m.closeOnce.Do(func() {
		m.cancel()
		m.wg.Wait()
		m.mu.Lock()
		for _, ch := range m.subs {
			close(ch)
		}
		m.subs, m.closed = nil, true
		m.mu.Unlock()
		_ = m.cli.Close()
		if !closeEtcd(m.etcd, 20*time.Second) {
			m.closeErr = fmt.Errorf("coord: member %q: etcd did not stop within 20s", m.cfg.Name)
		}
	})
	return m.closeErr
}
