package alliance

import (
	"context"
	"fmt"
	"sync"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/placement"
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
			f, err := fromWire(w)
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
