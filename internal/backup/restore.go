package backup

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.etcd.io/etcd/etcdutl/v3/snapshot"
	"go.uber.org/zap"
)

// ConfigError is a restore asked with bad input: Field names the input (snapshot, name,
// data-dir, peers, initial-cluster-token), as alliancectl restore's flags do.
type ConfigError struct {
	Field   string
	Problem string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Problem }

func badConfig(field, format string, a ...any) error {
	return &ConfigError{Field: field, Problem: fmt.Sprintf(format, a...)}
}

// Member is one member of the new cluster: its name and peer URL, as airline --peers gives them.
type Member struct {
	Name    string
	PeerURL string
}

// RestoreConfig is the restore of one member of a new cluster.
type RestoreConfig struct {
	Snapshot string   // a snapshot Save wrote (or etcdctl snapshot save)
	Name     string   // the member to write, one of Peers
	DataDir  string   // where to write it: must not exist, or be empty
	Peers    []Member // every member of the new cluster, the same for each member's restore
	// Token is the initial cluster token; "" takes ClusterToken of the snapshot's one alliance.
	Token string
}

// ClusterToken is the initial cluster token an airline server gives its etcd member (cmd/airline
// sets it so); a member restored with it is what that alliance's bootstrap would have made.
func ClusterToken(alliance string) string { return "flightalliance-" + alliance }

// Restored says what Restore wrote.
type Restored struct {
	Summary Summary // of the snapshot
	Token   string  // the initial cluster token used
}

// Restore verifies the snapshot and writes cfg.Name's data directory for the new cluster of
// cfg.Peers, as `etcdutl snapshot restore` does: the snapshot's keys and leases at its
// revision, with the new cluster's membership instead of the old one. It writes into a
// temporary directory beside cfg.DataDir and renames it into place when complete, so a failed
// restore leaves nothing a member could start on.
func Restore(cfg RestoreConfig) (Restored, error) {
	if err := cfg.check(); err != nil {
		return Restored{}, err
	}
	sum, err := Verify(cfg.Snapshot)
	if err != nil {
		return Restored{}, badConfig("snapshot", "%v", err) // missing, unreadable or damaged
	}
	token := cfg.Token
	if token == "" {
		if len(sum.Alliances) != 1 {
			return Restored{}, badConfig("initial-cluster-token", "the snapshot holds the keys of %d alliances (%s): give the token to use",
				len(sum.Alliances), strings.Join(sum.Alliances, ", "))
		}
		token = ClusterToken(sum.Alliances[0])
	}
	own, initial := "", make([]string, 0, len(cfg.Peers))
	for _, p := range cfg.Peers {
		initial = append(initial, p.Name+"="+p.PeerURL)
		if p.Name == cfg.Name {
			own = p.PeerURL
		}
	}
	parent := filepath.Dir(filepath.Clean(cfg.DataDir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Restored{}, fmt.Errorf("data-dir: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, filepath.Base(cfg.DataDir)+".restoring-*")
	if err != nil {
		return Restored{}, fmt.Errorf("data-dir: %w", err)
	}
	defer os.RemoveAll(tmp) // after the rename, a no-op
	// etcdutl refuses an existing non-empty directory, and an empty one is fine; etcd wants
	// its data directory readable by its owner only.
	if err := os.Chmod(tmp, 0o700); err != nil {
		return Restored{}, err
	}
	err = snapshot.NewV3(zap.NewNop()).Restore(snapshot.RestoreConfig{
		SnapshotPath:        cfg.Snapshot,
		Name:                cfg.Name,
		OutputDataDir:       tmp,
		PeerURLs:            []string{own},
		InitialCluster:      strings.Join(initial, ","),
		InitialClusterToken: token,
	})
	if err != nil {
		return Restored{}, fmt.Errorf("restoring %s: %w", cfg.Snapshot, err)
	}
	if err := os.Remove(cfg.DataDir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Restored{}, fmt.Errorf("data-dir: %w", err) // checked empty above; someone wrote meanwhile
	}
	if err := os.Rename(tmp, cfg.DataDir); err != nil {
		return Restored{}, fmt.Errorf("data-dir: %w", err)
	}
	return Restored{Summary: sum, Token: token}, syncDir(parent)
}

// check says what is wrong with cfg before anything is read or written.
func (cfg RestoreConfig) check() error {
	switch {
	case cfg.Snapshot == "":
		return badConfig("snapshot", "no file given")
	case cfg.Name == "":
		return badConfig("name", "no member name given")
	case cfg.DataDir == "":
		return badConfig("data-dir", "no directory given")
	case len(cfg.Peers) == 0:
		return badConfig("peers", "no members given")
	}
	if !slices.ContainsFunc(cfg.Peers, func(p Member) bool { return p.Name == cfg.Name }) {
		var names []string
		for _, p := range cfg.Peers {
			names = append(names, p.Name)
		}
		return badConfig("name", "%q is not one of the peers (%s)", cfg.Name, strings.Join(names, ", "))
	}
	entries, err := os.ReadDir(cfg.DataDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return badConfig("data-dir", "%v", err)
	case len(entries) > 0:
		return badConfig("data-dir", "%s is not empty: a restore writes a new member and never over one (move it aside first)", cfg.DataDir)
	}
	return nil
}

// ParsePeers reads a member list in airline --peers' form, "m1=https://10.0.0.5:2380,m2=...":
// names unique and without '=' or ',', peer URLs http:// or https:// with a host and port and
// no path, each given once.
func ParsePeers(v string) ([]Member, error) {
	bad := func(format string, a ...any) error { return badConfig("peers", format, a...) }
	var out []Member
	for _, item := range strings.Split(v, ",") {
		name, raw, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || name == "" || raw == "" {
			return nil, bad("%q is not NAME=URL", item)
		}
		u, err := url.Parse(raw)
		switch {
		case err != nil:
			return nil, bad("%s: %v", name, err)
		case u.Scheme != "http" && u.Scheme != "https":
			return nil, bad("%s: %q is not an http:// or https:// URL", name, raw)
		case u.Port() == "" || u.Hostname() == "":
			return nil, bad("%s: %q has no host:port", name, raw)
		case u.Path != "" && u.Path != "/" || u.RawQuery != "":
			return nil, bad("%s: %q has a path or query: a peer URL is scheme://host:port", name, raw)
		}
		for _, p := range out {
			if p.Name == name {
				return nil, bad("%s given twice", name)
			}
			if p.PeerURL == u.Scheme+"://"+u.Host {
				return nil, bad("%s and %s have the same URL %s", p.Name, name, p.PeerURL)
			}
		}
		out = append(out, Member{Name: name, PeerURL: u.Scheme + "://" + u.Host})
	}
	return out, nil
}
