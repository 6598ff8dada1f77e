package member

import (
	"context"
	"fmt"

	"go.etcd.io/etcd/server/v3/embed"
)

// Recover is the operator's way out of a lost quorum, and the only way this
// package ever forces a new cluster: it restarts this survivor's data as a
// one-member cluster (etcd's --force-new-cluster), keeping its data and its
// member ID and removing every other member. It is unsafe by nature — the
// survivor may lack the last writes the lost majority committed — so it
// must be run on the most up-to-date survivor only, with the old members
// stopped. The other machines then re-run Start with their usual Config:
// the cluster refuses their old identity, they move their data aside and
// join as new members.
func Recover(ctx context.Context, cfg Config) (*Member, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	if !hasMemberData(cfg.DataDir) {
		return nil, fmt.Errorf("%w: recover member %q: no etcd data in %s", ErrBadConfig, cfg.Name, cfg.DataDir)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.StartTimeout,
		fmt.Errorf("%w after %v", ErrStartTimeout, cfg.StartTimeout))
	defer cancel()
	ecfg, err := cfg.embedConfig(embed.ClusterStateFlagExisting, cfg.Name+"="+cfg.PeerURL)
	if err != nil {
		return nil, err
	}
	ecfg.ForceNewCluster = true
	cfg.Logger.Warn("coord RECOVER: forcing a new one-member cluster from this member's data", "dir", cfg.DataDir)
	e, _, err := startEtcd(ctx, ecfg)
	if err != nil {
		return nil, err
	}
	return newMember(cfg, e)
}
