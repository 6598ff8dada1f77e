package member

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// memberRecord is a member as etcd's peer endpoint GET <peerURL>/members
// and the client MemberList describe it.
type memberRecord struct {
	ID         uint64   `json:"id"`
	Name       string   `json:"name"`
	PeerURLs   []string `json:"peerURLs"`
	ClientURLs []string `json:"clientURLs"`
	IsLearner  bool     `json:"isLearner"`
}

// started reports whether the member ever ran: it publishes its name and
// client URLs when it first becomes ready.
func (r memberRecord) started() bool { return r.Name != "" && len(r.ClientURLs) > 0 }

// clusterView is the membership as one running member reported it; nil
// when no member answered.
type clusterView struct {
	source  string
	members []memberRecord
}

// clientURLs are the client URLs of the started voters.
func (v *clusterView) clientURLs() []string {
	var urls []string
	for _, m := range v.members {
		if m.started() && !m.IsLearner {
			urls = append(urls, m.ClientURLs...)
		}
	}
	return urls
}

// expectsBootstrap reports whether the cluster lists this member from a
// static bootstrap (same name and peer URL) that has not started yet: it
// must then start with ClusterState=new, not join.
func (v *clusterView) expectsBootstrap(c Config) bool {
	for _, m := range v.members {
		if m.Name == c.Name && slices.Contains(m.PeerURLs, c.PeerURL) && len(m.ClientURLs) == 0 {
			return true
		}
	}
	return false
}

// listsPeer reports whether a member with peer URL u is listed.
func (v *clusterView) listsPeer(u string) bool {
	for _, m := range v.members {
		if slices.Contains(m.PeerURLs, u) {
			return true
		}
	}
	return false
}

// has reports whether the member with id is listed.
func (v *clusterView) has(id uint64) bool {
	for _, m := range v.members {
		if m.ID == id {
			return true
		}
	}
	return false
}

// discover asks the join client URLs, then the other initial peers, for
// the cluster's members; it returns the first answer, or nil.
func discover(ctx context.Context, c Config, extraPeers []string) *clusterView {
	if len(c.Join) > 0 {
		if v := listByClient(ctx, c, c.Join); v != nil {
			return v
		}
	}
	for _, p := range otherPeerURLs(c, extraPeers) {
		if v := listByPeer(ctx, c, p); v != nil {
			return v
		}
	}
	return nil
}

// otherPeerURLs are the peer URLs of InitialCluster and extra, without
// this member's own.
func otherPeerURLs(c Config, extra []string) []string {
	var urls []string
	peers, _ := c.initialPeers()
	names := make([]string, 0, len(peers))
	for name := range peers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		for _, u := range peers[name] {
			urls = append(urls, u.String())
		}
	}
	urls = append(urls, extra...)
	slices.Sort(urls)
	urls = slices.Compact(urls)
	return slices.DeleteFunc(urls, func(u string) bool { return u == c.PeerURL })
}

func listByClient(ctx context.Context, c Config, endpoints []string) *clusterView {
	cli, err := newClient(c, endpoints)
	if err != nil {
		return nil
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	resp, err := cli.MemberList(ctx)
	if err != nil {
		c.Logger.Debug("member list through join URLs failed", "join", endpoints, "err", err)
		return nil
	}
	v := &clusterView{source: fmt.Sprint(endpoints)}
	for _, m := range resp.Members {
		v.members = append(v.members, memberRecord{ID: m.ID, Name: m.Name, PeerURLs: m.PeerURLs,
			ClientURLs: m.ClientURLs, IsLearner: m.IsLearner})
	}
	return v
}

// listByPeer reads GET <peerURL>/members, which every member serves on its
// peer port as soon as it runs, with or without quorum.
func listByPeer(ctx context.Context, c Config, peerURL string) *clusterView {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, peerURL+"/members", nil)
	if err != nil {
		return nil
	}
	resp, err := c.peerHTTPClient(time.Second).Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var members []memberRecord
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&members); err != nil {
		return nil
	}
	return &clusterView{source: peerURL, members: members}
}

// newClient is an etcd client for this member's own use, logging through
// the member's etcd logger.
func newClient(c Config, endpoints []string) (*clientv3.Client, error) {
	tlsConfig, err := c.clientTLS()
	if err != nil {
		return nil, err
	}
	return clientv3.New(clientv3.Config{
		TLS:                  tlsConfig,
		Endpoints:            endpoints,
		DialTimeout:          2 * time.Second,
		DialKeepAliveTime:    2 * time.Second,
		DialKeepAliveTimeout: 2 * time.Second,
		Logger:               c.etcdLogger(),
	})
}
