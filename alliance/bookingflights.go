package alliance

import (
	"context"
	"fmt"
	"slices"

	"flightalliance/alliance/flight"
	"flightalliance/alliance/ledger"
	"flightalliance/alliance/wire"
)

// bookingFlights finds the flights a booking names for the booking service (ledger.FlightFinder):
// from this machine's copy of a seller, else from the seller's holders in turn.
type bookingFlights struct{ m *Machine }

// Sellers are the sellers the alliance knows.
func (b bookingFlights) Sellers() []string { return b.m.knownSellers() }

// Flight looks one flight up: found is false when a holder of the seller answered without it;
// unavailable when no holder answered.
func (b bookingFlights) Flight(ctx context.Context, seller, number string) (f flight.Flight, found bool, err error) {
	m := b.m
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
				f, err := wire.Parse(w)
				if err != nil {
					return flight.Flight{}, false, fmt.Errorf("holder %s sent a malformed flight: %w", machine, err)
				}
				return f, true, nil
			}
		}
		return flight.Flight{}, false, nil
	}
	return flight.Flight{}, false, &ledger.RefusedError{Reason: ledger.Unavailable,
		Msg: fmt.Sprintf("no machine holding seller %s answered: nothing was booked; retry with the same key", seller)}
}
