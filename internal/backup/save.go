package backup

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Source is a running alliance's etcd: the client URLs of (some of) its members and the TLS
// that reaches them (nil for plain http://).
type Source struct {
	Endpoints []string
	TLS       *tls.Config
}

// Taken says which member a snapshot was read from.
type Taken struct {
	Endpoint string // its client URL
	Member   string // its name
	Version  string // the etcd version it runs
}

// dialTimeout bounds connecting to a member; statusTimeout one question to it.
const (
	dialTimeout   = 5 * time.Second
	statusTimeout = 5 * time.Second
)

// client is an etcd client of endpoints that logs nothing.
func (s Source) client(endpoints []string) (*clientv3.Client, error) {
	return clientv3.New(clientv3.Config{Endpoints: endpoints, TLS: s.TLS, DialTimeout: dialTimeout, Logger: zap.NewNop()})
}

// leader finds the cluster's leader by asking each endpoint, and returns a client URL of it:
// the endpoint that is the leader when one is, else the first client URL the member list gives
// it. Every endpoint's error is named when none can say.
func (s Source) leader(ctx context.Context) (endpoint, name string, err error) {
	cli, err := s.client(s.Endpoints)
	if err != nil {
		return "", "", err
	}
	defer cli.Close()
	var leaderID uint64
	var errs []string
	for _, ep := range s.Endpoints {
		sctx, cancel := context.WithTimeout(ctx, statusTimeout)
		st, err := cli.Status(sctx, ep)
		cancel()
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("%s: %v", ep, err))
		case st.Leader == 0:
			errs = append(errs, ep+": sees no leader (no quorum)")
		case st.Leader == st.Header.MemberId:
			endpoint, leaderID = ep, st.Leader
		case leaderID == 0:
			leaderID = st.Leader
		}
	}
	if leaderID == 0 {
		return "", "", fmt.Errorf("no endpoint knows a leader: %s", strings.Join(errs, "; "))
	}
	mctx, cancel := context.WithTimeout(ctx, statusTimeout)
	defer cancel()
	members, err := cli.MemberList(mctx)
	if err != nil {
		return "", "", fmt.Errorf("listing the members: %w", err)
	}
	for _, m := range members.Members {
		if m.ID != leaderID {
			continue
		}
		if endpoint == "" && len(m.ClientURLs) > 0 {
			endpoint = m.ClientURLs[0]
		}
		name = m.Name
	}
	if endpoint == "" {
		return "", "", fmt.Errorf("the leader (%x) publishes no client URL", leaderID)
	}
	return endpoint, name, nil
}

// Save writes a snapshot of the cluster to out, read from its leader (the member that has
// applied every write it acknowledged): first into a temporary file beside out, synced to disk
// and verified (Verify), then renamed to out. A failure leaves out as it was.
func Save(ctx context.Context, src Source, out string) (Taken, Summary, error) {
	endpoint, name, err := src.leader(ctx)
	if err != nil {
		return Taken{}, Summary{}, err
	}
	taken := Taken{Endpoint: endpoint, Member: name}
	cli, err := src.client([]string{endpoint})
	if err != nil {
		return taken, Summary{}, err
	}
	defer cli.Close()
	dir, base := filepath.Split(out)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".part-*")
	if err != nil {
		return taken, Summary{}, err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return taken, Summary{}, err
	}
	taken.Version, err = stream(ctx, cli, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return taken, Summary{}, fmt.Errorf("snapshot from %s: %w", endpoint, err)
	}
	sum, err := Verify(tmp.Name())
	if err != nil {
		return taken, Summary{}, fmt.Errorf("the snapshot %s sent: %w", endpoint, err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return taken, Summary{}, err
	}
	return taken, sum, syncDir(dir)
}

// stream copies a snapshot from the client's one endpoint into f and syncs it.
func stream(ctx context.Context, cli *clientv3.Client, f *os.File) (version string, err error) {
	resp, err := cli.SnapshotWithVersion(ctx)
	if err != nil {
		return "", err
	}
	defer resp.Snapshot.Close()
	if _, err := io.Copy(f, resp.Snapshot); err != nil {
		return resp.Version, err
	}
	return resp.Version, f.Sync()
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
