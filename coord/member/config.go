package member

import (
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/types"
	"go.uber.org/zap"

	"flightalliance/internal/pki"
)

// Config describes one embedded etcd member. The zero values of the
// optional fields take the defaults documented on each field.
type Config struct {
	Name      string // unique member name (= machine name)
	DataDir   string // this member's etcd data dir
	PeerURL   string // e.g. http://127.0.0.1:2381 — advertised, and listened on unless ListenPeerURL is set
	ClientURL string // e.g. http://127.0.0.1:2391 — advertised, and listened on unless ListenClientURL is set
	// ListenPeerURL and ListenClientURL, when set, are where the member listens while PeerURL and
	// ClientURL are what it advertises — for a proxy in front of it (fault injection, NAT).
	ListenPeerURL   string
	ListenClientURL string
	// InitialCluster lists the members that start the cluster
	// ("m1=http://127.0.0.1:2381,m2=..."); it may omit this member when
	// Join is set. MaxVoters of its names, chosen round-robin over their
	// zones (see PeerZones), bootstrap it as voters; the others join it as
	// learners once it runs.
	InitialCluster string
	// Zone is this member's zone (a failure domain: a site, a rack); default
	// PeerZones[Name], else Name (every member its own zone). Voters are
	// chosen across zones, at bootstrap and on promotion, so that losing one
	// zone of three or more keeps a quorum. A zone name is non-empty and
	// printable, without '/', ',' or '='.
	Zone string
	// PeerZones gives the zones of the InitialCluster members (and of any
	// other member, as a fallback), by name; a member missing from it is its
	// own zone. It must be the same on every member that bootstraps: the
	// bootstrap voters are chosen from it — the zones in name order, each
	// zone's members in name order, the first of every zone, then the
	// second, ... until MaxVoters — so that with no zones given they are the
	// first MaxVoters names. Once running, a member's recorded zone (its
	// Zone, see Member.Zones) takes precedence.
	PeerZones    map[string]string
	Join         []string // client URLs of running members; optional
	ClusterToken string   // e.g. the alliance name; default "coord"
	MaxVoters    int      // default 5; further members stay learners
	// DeadGrace: a member unreachable this long is removed by the
	// reconciler; default 10s.
	DeadGrace    time.Duration
	StartTimeout time.Duration // default 60s
	TickMs       uint          // default 100
	ElectionMs   uint          // default 1000
	Logger       *slog.Logger  // default slog.Default()
	EtcdLogLevel string        // default "warn"
	// EtcdLogger, when set, takes etcd's logs (the member's and its clients') instead of etcd's
	// own JSON on stderr at EtcdLogLevel: its level is then the logger's own.
	EtcdLogger *zap.Logger
	// TLS, when its certificate is set, secures the member's peer and client traffic (its URLs
	// are then https://); with a CA, peers and clients must present certificates it signed, and
	// this member presents its own to them.
	TLS pki.Files
	// UnsafeNoFsync skips fsync in etcd: for tests on shared disks only; a
	// crash can lose acknowledged writes.
	UnsafeNoFsync bool
	// OnRemoval, when set, is called once for every member removal this member makes (the
	// reconciler's, a joiner's removal of its stale self, its own leave), after the removal
	// succeeded and its record was written (see Removal). It is called from the goroutine
	// that removed, holding no lock, and must not block for long.
	OnRemoval func(Removal)
}

// maxLearners is set the same on every member (etcd requires it).
const maxLearners = 100

// Check validates c as Start would, without starting anything: for a command line checked
// before it is run.
func (c Config) Check() error {
	_, err := c.normalize()
	return err
}

// normalize validates c and fills in defaults.
func (c Config) normalize() (Config, error) {
	bad := func(format string, a ...any) (Config, error) {
		return Config{}, fmt.Errorf("%w: "+format, append([]any{ErrBadConfig}, a...)...)
	}
	if c.Name == "" || strings.ContainsAny(c.Name, "=,/ ") {
		return bad("name %q must be non-empty without '=', ',', '/' or spaces", c.Name)
	}
	if c.DataDir == "" {
		return bad("data dir of member %q is empty", c.Name)
	}
	if err := checkAsideWritable(c.DataDir); err != nil {
		return bad("data dir %q: %v", c.DataDir, err)
	}
	if c.ListenPeerURL == "" {
		c.ListenPeerURL = c.PeerURL
	}
	if c.ListenClientURL == "" {
		c.ListenClientURL = c.ClientURL
	}
	for field, u := range map[string]string{"peer URL": c.PeerURL, "client URL": c.ClientURL,
		"listen peer URL": c.ListenPeerURL, "listen client URL": c.ListenClientURL} {
		if err := checkURL(u); err != nil {
			return bad("%s %q of member %q: %v", field, u, c.Name, err)
		}
	}
	for _, u := range c.Join {
		if err := checkURL(u); err != nil {
			return bad("join URL %q: %v", u, err)
		}
	}
	peers, err := c.initialPeers()
	if err != nil {
		return bad("initial cluster %q: %v", c.InitialCluster, err)
	}
	for name, z := range c.PeerZones {
		if name == "" || strings.ContainsAny(name, "=,/ ") {
			return bad("PeerZones: member name %q must be non-empty without '=', ',', '/' or spaces", name)
		}
		if err := checkZone(z); err != nil {
			return bad("PeerZones[%q]: zone %q: %v", name, z, err)
		}
	}
	c.PeerZones = maps.Clone(c.PeerZones)
	if c.Zone == "" {
		c.Zone = c.peerZone(c.Name)
	} else if err := checkZone(c.Zone); err != nil {
		return bad("Zone %q of member %q: %v", c.Zone, c.Name, err)
	} else if peer, listed := c.PeerZones[c.Name]; listed && peer != c.Zone {
		return bad("Zone %q of member %q disagrees with PeerZones[%q] = %q", c.Zone, c.Name, c.Name, peer)
	}
	if _, self := peers[c.Name]; !self && len(c.Join) == 0 {
		return bad("initial cluster %q does not list member %q and no join URL is given", c.InitialCluster, c.Name)
	}
	if c.ClusterToken == "" {
		c.ClusterToken = "coord"
	}
	if c.MaxVoters <= 0 {
		c.MaxVoters = 5
	}
	if c.DeadGrace <= 0 {
		c.DeadGrace = 10 * time.Second
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 60 * time.Second
	}
	if c.TickMs == 0 {
		c.TickMs = 100
	}
	if c.ElectionMs == 0 {
		c.ElectionMs = 1000
	}
	if c.ElectionMs < 5*c.TickMs {
		return bad("election timeout %dms must be at least 5 ticks of %dms", c.ElectionMs, c.TickMs)
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Logger = c.Logger.With("member", c.Name)
	if c.EtcdLogLevel == "" {
		c.EtcdLogLevel = "warn"
	}
	return c, nil
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("scheme must be http or https")
	}
	if u.Port() == "" {
		return fmt.Errorf("no port")
	}
	return nil
}

// initialPeers parses InitialCluster; the entry for this member is forced
// to its PeerURL.
func (c Config) initialPeers() (types.URLsMap, error) {
	if c.InitialCluster == "" {
		return types.URLsMap{}, nil
	}
	m, err := types.NewURLsMap(c.InitialCluster)
	if err != nil {
		return nil, err
	}
	if self, ok := m[c.Name]; ok && (len(self) != 1 || self[0].String() != c.PeerURL) {
		return nil, fmt.Errorf("member %q is listed with %v, not its peer URL %s", c.Name, self, c.PeerURL)
	}
	return m, nil
}

// bootstrapPeers is the part of InitialCluster that forms the cluster as its first voters:
// MaxVoters names chosen round-robin over the zones PeerZones gives them (acrossZones) — with no
// zones, the first MaxVoters names in name order. Every member computes the same set, whatever
// the order of its list, as long as PeerZones is the same everywhere: the bootstrap reads no
// member's own Zone. The other listed members do not bootstrap: they join the running cluster as
// learners, promoted as voters leave, so a long peer list never makes more than MaxVoters voters.
func (c Config) bootstrapPeers() (types.URLsMap, error) {
	peers, err := c.initialPeers()
	if err != nil {
		return nil, err
	}
	keep := acrossZones(slices.Collect(maps.Keys(peers)), c.peerZone, c.MaxVoters)
	for name := range peers {
		if !slices.Contains(keep, name) {
			delete(peers, name)
		}
	}
	return peers, nil
}

// tick is one raft heartbeat.
func (c Config) tick() time.Duration { return time.Duration(c.TickMs) * time.Millisecond }

// election is the raft election timeout.
func (c Config) election() time.Duration { return time.Duration(c.ElectionMs) * time.Millisecond }
