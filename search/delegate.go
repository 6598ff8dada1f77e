package search

import (
	"context"
	"sync"

	"flightalliance/soap"
)

// Delegate is an alliance's delegate as the search server calls it: SOAP getTrips.
type Delegate interface {
	GetTrips(ctx context.Context, req soap.GetTripsRequest) (*soap.GetTripsResponse, error)
}

// DialFunc makes the client of the delegate at uri (the SellerService URL it registered).
type DialFunc func(uri string) (Delegate, error)

// clientCache keeps one client per delegate URI, so that a client's connections and its parsed
// WSDL are reused across searches. Clients of URIs no longer registered are dropped.
type clientCache struct {
	dial DialFunc

	mu      sync.Mutex
	clients map[string]Delegate
}

func newClientCache(dial DialFunc) *clientCache {
	return &clientCache{dial: dial, clients: map[string]Delegate{}}
}

func (c *clientCache) get(uri string) (Delegate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.clients[uri]; ok {
		return d, nil
	}
	d, err := c.dial(uri)
	if err != nil {
		return nil, err
	}
	c.clients[uri] = d
	return d, nil
}

// retain drops the clients of every URI that is neither a delegate nor an alternate in regs.
func (c *clientCache) retain(regs []Registration) {
	keep := map[string]bool{}
	for _, r := range regs {
		for _, uri := range r.Targets() {
			keep[uri] = true
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for uri := range c.clients {
		if !keep[uri] {
			delete(c.clients, uri)
		}
	}
}

func (c *clientCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.clients)
}
