package alliance

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/placement"
	"flightalliance/alliance/wire"
	"flightalliance/soap"
)

// peerClients keeps one IntraClusterService client per machine URL.
type peerClients struct {
	opts    soap.ClientOptions
	mu      sync.Mutex
	clients map[string]*soap.IntraClient
}

func newPeerClients(opts soap.ClientOptions) *peerClients {
	return &peerClients{opts: opts, clients: map[string]*soap.IntraClient{}}
}

func (p *peerClients) get(baseURL string) *soap.IntraClient {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.clients[baseURL]
	if !ok {
		c = soap.NewIntraClient(baseURL+intraPath, p.opts)
		p.clients[baseURL] = c
	}
	return c
}

// fetchSeller copies one seller from machine from, page by page, and checks that the pages add
// up to the version the source announced.
func (m *Machine) fetchSeller(ctx context.Context, from, seller string, role placement.Role) (*flight.Seller, error) {
	base, ok := m.view.url(from)
	if !ok {
		return nil, fmt.Errorf("seller %s: source %s is not in the view", seller, from)
	}
	client := m.clients.get(base)
	var asm *flight.Assembler
	version, cursor := "", ""
	for {
		callCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout*5)
		page, err := client.SendSeller(callCtx, string(role), seller, cursor)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("seller %s from %s: %w", seller, from, err)
		}
		if page.Seller != seller {
			return nil, fmt.Errorf("seller %s from %s: got a page of %q", seller, from, page.Seller)
		}
		if asm == nil {
			asm, version = flight.NewAssembler(seller, page.Version), page.Version
		} else if version != page.Version {
			return nil, fmt.Errorf("seller %s from %s: version changed during the transfer", seller, from)
		}
		flights := make([]flight.Flight, 0, len(page.Flights))
		for _, w := range page.Flights {
			f, err := wire.Parse(w)
			if err != nil {
				return nil, fmt.Errorf("seller %s from %s: %w", seller, from, err)
			}
			flights = append(flights, f)
		}
		if err := asm.Add(flights); err != nil {
			return nil, fmt.Errorf("seller %s from %s: %w", seller, from, err)
		}
		m.metrics.pagesFetched.Inc()
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	return asm.Seller()
}

// fetchAll fetches every copy the plan gives this machine. Each attempt asks the next of the
// copy's sources in turn (the planner's source, then every other holder of the same version in
// the snapshot, then the planner's source again, …), with a growing backoff between attempts;
// the round is abandoned only when the membership moves on (a dead source's lease expires) or
// ctx ends.
func (m *Machine) fetchAll(ctx context.Context, plan placement.Result, holdings map[string]holding) (map[string]*flight.Seller, error) {
	fetched := map[string]*flight.Seller{}
	for _, t := range plan.Transfers {
		if t.To != m.cfg.Name {
			continue
		}
		sources := sourcesFor(t, holdings)
		err := retry(ctx, func(attempt int) error {
			from := sources[attempt%len(sources)]
			sel, err := m.fetchSeller(ctx, from, t.Seller, t.Role)
			if err != nil {
				m.log.Warn("fetch failed; retrying", "seller", t.Seller, "role", t.Role, "from", from, "attempt", attempt+1, "err", err)
				return err
			}
			fetched[t.Seller] = sel
			m.log.Info("fetched seller", "seller", t.Seller, "role", t.Role, "from", from, "flights", sel.Len(), "version", sel.Version())
			return nil
		})
		if err != nil {
			return nil, context.Cause(ctx)
		}
	}
	return fetched, nil
}

// sourcesFor lists who can send a transfer's copy: the planner's source first, then any other
// participant that held or brought the same version of the seller in the snapshot.
func sourcesFor(t placement.Transfer, holdings map[string]holding) []string {
	sources := []string{t.From}
	version := holdings[t.From].Versions[t.Seller]
	for _, name := range slices.Sorted(maps.Keys(holdings)) {
		h := holdings[name]
		if name == t.From || name == t.To || h.Versions[t.Seller] != version {
			continue
		}
		if slices.Contains(h.Primaries, t.Seller) || slices.Contains(h.Backups, t.Seller) || slices.Contains(h.Brings, t.Seller) {
			sources = append(sources, name)
		}
	}
	return sources
}
