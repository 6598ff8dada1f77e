package member

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/logutil"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// embedConfig is the etcd configuration of this member. state is
// embed.ClusterStateFlagNew or ...Existing; initialCluster is ignored by
// etcd when the data dir already holds a member.
func (c Config) embedConfig(state, initialCluster string) (*embed.Config, error) {
	peer, err := url.Parse(c.PeerURL)
	if err != nil {
		return nil, err
	}
	client, err := url.Parse(c.ClientURL)
	if err != nil {
		return nil, err
	}
	listenPeer, err := url.Parse(c.ListenPeerURL)
	if err != nil {
		return nil, err
	}
	listenClient, err := url.Parse(c.ListenClientURL)
	if err != nil {
		return nil, err
	}
	e := embed.NewConfig()
	e.Name = c.Name
	e.Dir = c.DataDir
	e.ListenPeerUrls, e.AdvertisePeerUrls = []url.URL{*listenPeer}, []url.URL{*peer}
	e.ListenClientUrls, e.AdvertiseClientUrls = []url.URL{*listenClient}, []url.URL{*client}
	e.ClusterState = state
	e.InitialCluster = initialCluster
	e.InitialClusterToken = c.ClusterToken
	e.TickMs, e.ElectionMs = c.TickMs, c.ElectionMs
	e.MaxLearners = maxLearners
	e.StrictReconfigCheck = true
	e.UnsafeNoFsync = c.UnsafeNoFsync
	e.AutoCompactionMode = embed.CompactorModePeriodic
	e.AutoCompactionRetention = "1h"
	e.LogLevel = c.EtcdLogLevel
	e.LogOutputs = []string{"stderr"}
	if c.EtcdLogger != nil {
		e.ZapLoggerBuilder = embed.NewZapLoggerBuilder(c.EtcdLogger)
	}
	if c.TLS.Enabled() {
		info := transport.TLSInfo{CertFile: c.TLS.CertFile, KeyFile: c.TLS.KeyFile, TrustedCAFile: c.TLS.CAFile,
			ClientCertAuth: c.TLS.CAFile != ""}
		e.PeerTLSInfo, e.ClientTLSInfo = info, info
	}
	return e, nil
}

// clientTLS is the TLS configuration of this member's clients (etcd and HTTP), or nil without TLS.
func (c Config) clientTLS() (*tls.Config, error) {
	if !c.TLS.Enabled() {
		return nil, nil
	}
	return c.TLS.Client()
}

// peerHTTPClient is an HTTP client of the other members' peer ports (GET /members), with this
// member's TLS. It speaks HTTP/1.1 only: etcd's peer listener offers "h2" by ALPN (its TLS
// config is shared with gRPC) but serves its peer handler through cmux with an http.Server
// that sees no *tls.Conn and so speaks only HTTP/1.x. A Go client that negotiates h2 there
// gets its connection closed without an answer — every probe of a healthy member failed, and
// the reconciler removed it.
func (c Config) peerHTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ForceAttemptHTTP2 = false
	t.Protocols = new(http.Protocols)
	t.Protocols.SetHTTP1(true)
	if cfg, err := c.clientTLS(); err == nil && cfg != nil {
		t.TLSClientConfig = cfg
	}
	return &http.Client{Timeout: timeout, Transport: t}
}

// etcdLogger is the zap logger of this member's etcd clients: EtcdLogger, else etcd's own at
// EtcdLogLevel.
func (c Config) etcdLogger() *zap.Logger {
	if c.EtcdLogger != nil {
		return c.EtcdLogger
	}
	return zapLogger(c.EtcdLogLevel)
}

// zapLogger is a zap logger at level (etcd's client logs through zap).
func zapLogger(level string) *zap.Logger {
	l, err := zapcore.ParseLevel(level)
	if err != nil {
		l = zapcore.WarnLevel
	}
	lg, err := logutil.CreateDefaultZapLogger(l)
	if err != nil {
		return zap.NewNop()
	}
	return lg
}

// startResult says how waiting for a starting etcd server ended.
type startResult int

const (
	started startResult = iota
	stoppedEarly
	failed
)

// startEtcd starts etcd and waits until it is ready, stops by itself, fails
// or ctx ends. On anything but started, the server is closed (bounded).
func startEtcd(ctx context.Context, ecfg *embed.Config) (*embed.Etcd, startResult, error) {
	return startEtcdChecked(ctx, ecfg, nil)
}

// removalCheckEvery is how often a member restarting on its data asks the
// running cluster whether it still lists the member.
const removalCheckEvery = 2 * time.Second

// startEtcdChecked is startEtcd that also, while it waits, asks removed
// every removalCheckEvery whether the cluster has removed this member; a
// yes stops the wait as if the server had stopped by itself.
func startEtcdChecked(ctx context.Context, ecfg *embed.Config, removed func(*embed.Etcd) bool) (*embed.Etcd, startResult, error) {
	// Every start gets a guard of its own around the requests of its server (stopguard.go); the
	// caller's config may start several times and is not changed.
	guard := &stopGuard{}
	guarded := *ecfg
	guarded.GRPCAdditionalServerOptions = append(slices.Clone(ecfg.GRPCAdditionalServerOptions), guard.options()...)
	e, err := embed.StartEtcd(&guarded)
	if err != nil {
		return nil, failed, fmt.Errorf("coord: start etcd member %q: %w", ecfg.Name, err)
	}
	guard.watch(e.Server.StoppingNotify(), e.GetLogger())
	var check <-chan time.Time
	if removed != nil {
		t := time.NewTicker(removalCheckEvery)
		defer t.Stop()
		check = t.C
	}
	for {
		select {
		case <-check:
			if removed(e) {
				closeEtcd(e, 10*time.Second)
				return e, stoppedEarly, fmt.Errorf("%w: member %q is no longer listed by the running cluster", ErrStopped, ecfg.Name)
			}
		case <-e.Server.ReadyNotify():
			return e, started, nil
		case <-e.Server.StopNotify():
			closeEtcd(e, 10*time.Second)
			return e, stoppedEarly, fmt.Errorf("%w: member %q stopped while starting", ErrStopped, ecfg.Name)
		case err := <-e.Err():
			// A server that stops by itself (e.g. removed from the cluster)
			// first reports "server is stopping" here: tell the two apart.
			res := failed
			select {
			case <-e.Server.StopNotify():
				res = stoppedEarly
			case <-time.After(5 * time.Second):
			}
			closeEtcd(e, 10*time.Second)
			if res == stoppedEarly {
				return e, res, fmt.Errorf("%w: member %q stopped while starting: %w", ErrStopped, ecfg.Name, err)
			}
			return nil, failed, fmt.Errorf("coord: etcd member %q failed while starting: %w", ecfg.Name, err)
		case <-ctx.Done():
			closeEtcd(e, 10*time.Second)
			return nil, failed, fmt.Errorf("%w: member %q not ready: %w", ErrStartTimeout, ecfg.Name, context.Cause(ctx))
		}
	}
}

// closeEtcd closes e, giving up after limit: etcd's Close can block on
// stuck peers and must not block shutdown forever.
func closeEtcd(e *embed.Etcd, limit time.Duration) bool {
	done := make(chan struct{})
	go func() {
		e.Close()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(limit):
		return false
	}
}

// hasMemberData reports whether dir holds an etcd member (its WAL).
func hasMemberData(dir string) bool {
	entries, err := os.ReadDir(filepath.Join(dir, "member", "wal"))
	return err == nil && len(entries) > 0
}

// moveAside renames dir to <dir>.removed-<unix>, so a fresh member can use
// dir while the old data stays available to an operator.
func moveAside(dir string, now time.Time) (string, error) {
	to := fmt.Sprintf("%s.removed-%d", filepath.Clean(dir), now.Unix())
	if err := os.Rename(dir, to); err != nil {
		return "", fmt.Errorf("coord: move removed member's data %s aside: %w", dir, err)
	}
	return to, nil
}
