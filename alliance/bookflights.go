package alliance

import (
	"context"
	"fmt"
	"slices"

	"flightalliance/alliance/booking"
	"flightalliance/alliance/flight"
	"flightalliance/soap"
)

// bookedFlights finds the flights a reservation names, in its order, as the alliance's data has
// them: from this machine's copy of a seller, else from the seller's holders in turn. A seller
// the alliance does not know, or a flight its seller does not have, is a not-found fault naming
// it; a seller no holder answered for is unavailable (nothing can be booked on it now).
func (m *Machine) bookedFlights(ctx context.Context, legs []booking.LegRef) ([]flight.Flight, error) {
	out := make([]flight.Flight, len(legs))
	known := m.knownSellers()
	for i, l := range legs {
		if !slices.Contains(known, l.Seller) {
			return nil, soap.KindFault(soap.KindNotFound, "legs[%d].seller: %s is not a seller of alliance %s", i, l.Seller, m.cfg.Alliance)
		}
		f, found, err := m.findFlight(ctx, l.Seller, l.Flight)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, soap.KindFault(soap.KindNotFound, "legs[%d].flight: seller %s has no flight %s", i, l.Seller, l.Flight)
		}
		out[i] = f
	}
	return out, nil
}

// findFlight looks one flight up: found is false when a holder of the seller answered without it.
func (m *Machine) findFlight(ctx context.Context, seller, number string) (f flight.Flight, found bool, err error) {
	if sel, ok := m.store.seller(seller); ok {
		f, found = sel.Flight(number)
		return f, found, nil
	}
	for _, machine := range m.view.candidates(seller) {
		base, ok := m.view.url(machine)
		if !ok || machine == m.cfg.Name {
			continue
		}
		callCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
		resp, err := m.clients.get(base).GetFlights(callCtx, seller, []string{number})
		cancel()
		if err != nil {
			m.log.Warn("holder did not answer a flight lookup; asking the next holder", "holder", machine, "seller", seller, "err", err)
			continue
		}
		if !slices.Contains(resp.Sellers, seller) {
			continue // it gave the seller up meanwhile
		}
		for _, w := range resp.Flights {
			if w.Seller == seller && w.Flight == number {
				f, err := fromWire(w)
				if err != nil {
					return flight.Flight{}, false, fmt.Errorf("holder %s sent a malformed flight: %w", machine, err)
				}
				return f, true, nil
			}
		}
		return flight.Flight{}, false, nil
	}
	return flight.Flight{}, false, soap.KindFault(soap.KindUnavailable,
		"no machine holding seller %s answered: nothing was booked; retry with the same key", seller)
}
