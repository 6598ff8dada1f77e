package faultnet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// Proxies holds proxies started in this process, by name.
type Proxies struct {
	api *toxiproxy.ApiServer
}

// New makes an empty set of proxies: toxiproxy's server, listening nowhere itself (Routes serves
// its HTTP API where a caller wants it), with metrics of its own and no log.
func New() *Proxies {
	return &Proxies{api: toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), zerolog.Nop())}
}

// Start starts the proxy name listening on listen ("127.0.0.1:0": any free port) and forwarding
// to upstream.
func (ps *Proxies) Start(name, listen, upstream string) (*toxiproxy.Proxy, error) {
	p := toxiproxy.NewProxy(ps.api, name, listen, upstream)
	if err := ps.api.Collection.Add(p, true); err != nil {
		return nil, err
	}
	return p, nil
}

// Get is the proxy name, nil if there is none.
func (ps *Proxies) Get(name string) *toxiproxy.Proxy {
	p, err := ps.api.Collection.Get(name)
	if err != nil {
		return nil
	}
	return p
}

// Remove stops the proxy name and forgets it.
func (ps *Proxies) Remove(name string) error { return ps.api.Collection.Remove(name) }

// All is every proxy started and not removed.
func (ps *Proxies) All() map[string]*toxiproxy.Proxy { return ps.api.Collection.Proxies() }

// Routes is toxiproxy's HTTP API over these proxies, for toxiproxy's own clients.
func (ps *Proxies) Routes() http.Handler { return ps.api.Routes() }

// Close stops every proxy.
func (ps *Proxies) Close() error { return ps.api.Collection.Clear() }

// PartitionToxics are the names of the two toxics Partition adds: one per direction.
var PartitionToxics = []string{"partition_upstream", "partition_downstream"}

// Partition holds every byte through p in each direction, silently. It is idempotent.
func Partition(p *toxiproxy.Proxy) error {
	for _, toxic := range PartitionToxics {
		stream := strings.TrimPrefix(toxic, "partition_")
		body := fmt.Sprintf(`{"name":%q,"type":"timeout","stream":%q,"toxicity":1,"attributes":{"timeout":0}}`, toxic, stream)
		if _, err := p.Toxics.AddToxicJson(strings.NewReader(body)); err != nil && !errors.Is(err, toxiproxy.ErrToxicAlreadyExists) {
			return fmt.Errorf("%s: adding toxic %s: %w", p.Name, toxic, err)
		}
	}
	return nil
}

// Delay holds each byte through p for oneWay in each direction: every connection through it
// has a round trip of twice that. A chunk's latency counts from when it arrived, so bytes in
// flight overlap as on a real link: it adds latency, not a bandwidth limit.
func Delay(p *toxiproxy.Proxy, oneWay time.Duration) error {
	for _, stream := range []string{"upstream", "downstream"} {
		body := fmt.Sprintf(`{"name":"wan-%s","type":"latency","stream":"%s","toxicity":1,"attributes":{"latency":%d}}`,
			stream, stream, oneWay.Milliseconds())
		if _, err := p.Toxics.AddToxicJson(strings.NewReader(body)); err != nil {
			return fmt.Errorf("%s: adding toxic wan-%s: %w", p.Name, stream, err)
		}
	}
	return nil
}

// Heal removes every toxic of p.
func Heal(ctx context.Context, p *toxiproxy.Proxy) { p.Toxics.ResetToxics(ctx) }
