package alliance

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"time"

	"flightalliance/contract"
	"flightalliance/coord/member"
	"flightalliance/internal/pki"
)

// Config is one airline server's configuration, completed and validated once by New.
type Config struct {
	Name     string            // machine name, unique in the alliance (also its etcd member name)
	Alliance string            // alliance name (the search server's cluster name)
	Sellers  map[string]string // seller code → CSV file this machine brings
	// Zone is the failure domain this machine runs in (rack, data centre); default its Name.
	// A seller's copies go to distinct zones whenever enough zones are live.
	Zone string
	// Replicas is K, the copies of every seller (1..5): alliance-wide, recorded at bootstrap in
	// /alliances/<alliance>/config. 0 adopts the alliance's value (2 for a new alliance); another
	// value than the alliance's refuses the start (see ensureSettings).
	Replicas     int
	Listen       string        // host:port of the SOAP and status server
	AdvertiseURL string        // base URL others use to reach Listen; default http://<Listen>
	Member       member.Config // the embedded etcd member
	SearchURLs   []string      // search servers to register with while this machine is the delegate
	// ForceNewCluster starts the etcd member with member.Recover: the operator's recovery after a
	// permanent loss of quorum, never done automatically.
	ForceNewCluster bool
	// Token is the alliance's bearer token, read from a file: every IntraClusterService call
	// must carry it (and this machine sends it), and so does registration with search servers.
	// Empty runs the alliance open.
	Token string
	// AlsoAccepted are further tokens an IntraClusterService call may carry instead of Token:
	// while the alliance changes its token, every machine accepts the old one and the new one
	// (the token file's further lines), so that machines already sending the new one and
	// machines still sending the old one answer each other.
	AlsoAccepted []string
	// TLS, when its certificate is set, serves HTTPS and secures the etcd member's traffic with
	// the same files; with its CA, callers (machines, search servers) must present certificates
	// it signed, and this machine verifies the servers it calls with it.
	TLS pki.Files

	SessionTTL    time.Duration // lease of this machine's ephemeral entries; default 3s (etcd's floor is 2s)
	CallTimeout   time.Duration // every call to another machine or to etcd; default 2s
	DropGrace     time.Duration // longest wait before dropping a copy moved away; default 10s
	RegisterEvery time.Duration // delegate re-registration period; default 3s
	LeaveTimeout  time.Duration // longest graceful leave; default 30s
	RoundTimeout  time.Duration // longest a round may take to enter and fetch; default 2m
	HedgeAfter    time.Duration // a holder silent this long gets the seller's next holder asked too; default 150ms
	MinConnection time.Duration // default 30m
	CacheSize     int           // answers cached by the delegate; default 4096, negative disables the cache
	// CacheBytes is the most the delegate's cached answers may take (gather.listCost: each trip
	// counted with every form it may be kept in); default 1 GiB, negative disables the cache.
	CacheBytes int64
	// FlightsCache is the most flights the delegate keeps of the holders' answers, per seller and
	// airport (see alliance/gather); default 500,000, negative keeps none.
	FlightsCache int
	PageSize     int   // flights per sendPrimarySeller/sendBackupSeller page; default 5000
	MaxBody      int64 // limit of a SOAP answer read from another machine; default 64 MiB
	Logger       *slog.Logger
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

// normalize fills in the defaults of c and validates it, the way member.Config does: it returns
// the completed copy, or every problem found, in the order of the fields.
func (c Config) normalize() (Config, error) {
	var errs []error
	if !nameRE.MatchString(c.Name) {
		errs = append(errs, fmt.Errorf("name: %q is not a machine name (letters, digits, _ . -, at most 63)", c.Name))
	}
	if !nameRE.MatchString(c.Alliance) || !contract.ValidAlliance(c.Alliance) {
		errs = append(errs, fmt.Errorf("alliance: %q is not an alliance name (letters, digits, _ -, at most 63; no '.', which ends the alliance in a booking's id)", c.Alliance))
	}
	if c.Zone == "" {
		c.Zone = c.Name
	}
	if !nameRE.MatchString(c.Zone) {
		errs = append(errs, fmt.Errorf("zone: %q is not a zone name (letters, digits, _ . -, at most 63)", c.Zone))
	}
	if c.Replicas < 0 || c.Replicas > maxReplicas {
		errs = append(errs, fmt.Errorf("replicas: %d, want 1 to %d", c.Replicas, maxReplicas))
	}
	if c.Listen == "" {
		errs = append(errs, errors.New("listen: required"))
	}
	if err := c.TLS.Check(); err != nil {
		errs = append(errs, err)
	}
	if c.AdvertiseURL == "" {
		c.AdvertiseURL = "http://" + c.Listen
		if c.TLS.Enabled() {
			c.AdvertiseURL = "https://" + c.Listen
		}
	}
	if !c.Member.TLS.Enabled() {
		c.Member.TLS = c.TLS
	}
	if u, err := url.Parse(c.AdvertiseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("advertise-url: %q is not an http(s) URL", c.AdvertiseURL))
	}
	for _, s := range c.SearchURLs {
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("search: %q is not an http(s) URL", s))
		}
	}
	setDefault(&c.SessionTTL, 3*time.Second)
	setDefault(&c.CallTimeout, 2*time.Second)
	setDefault(&c.DropGrace, 10*time.Second)
	setDefault(&c.RegisterEvery, 3*time.Second)
	setDefault(&c.LeaveTimeout, 30*time.Second)
	setDefault(&c.RoundTimeout, 2*time.Minute)
	setDefault(&c.HedgeAfter, 150*time.Millisecond)
	setDefault(&c.MinConnection, 30*time.Minute)
	setDefault(&c.CacheSize, 4096)
	setDefault(&c.CacheBytes, 1<<30)
	setDefault(&c.FlightsCache, 500_000)
	setDefault(&c.PageSize, 5000)
	setDefault(&c.MaxBody, 64<<20)
	for _, d := range []struct {
		field string
		value time.Duration
	}{
		{"session-ttl", c.SessionTTL}, {"call-timeout", c.CallTimeout}, {"drop-grace", c.DropGrace},
		{"register-every", c.RegisterEvery}, {"leave-timeout", c.LeaveTimeout}, {"round-timeout", c.RoundTimeout},
		{"hedge-after", c.HedgeAfter}, {"min-connection", c.MinConnection},
	} {
		if d.value < 0 {
			errs = append(errs, fmt.Errorf("%s: %v is negative", d.field, d.value))
		}
	}
	if c.PageSize < 0 || c.MaxBody < 0 {
		errs = append(errs, fmt.Errorf("page-size and max-body must not be negative (%d, %d)", c.PageSize, c.MaxBody))
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if err := errors.Join(errs...); err != nil {
		return Config{}, err
	}
	return c, nil
}

func setDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}
