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
// from this machine's copy of a seller without any call, else from the seller's holders in turn,
// all of a seller's numbers in one call.
type bookingFlights struct{ m *Machine }

// Sellers are the sellers the alliance knows.
func (b bookingFlights) Sellers() []string { return b.m.knownSellers() }

// Flights looks flights of one seller up by number: a number the seller does not have is left
// out; unavailable when no holder answered.
func (b bookingFlights) Flights(ctx context.Context, seller string, numbers []string) (map[string]flight.Flight, error) {
	m := b.m
	found := map[string]flight.Flight{}
	if sel, ok := m.copies.seller(seller); ok {
		for _, n := range numbers {
			if f, ok := sel.Flight(n); ok {
				found[n] = f
			}
		}
		return found, nil
	}
	holders, _ := m.view.candidates(seller)
	for _, machine := range holders {
		base, ok := m.view.url(machine)
		if !ok || machine == m.cfg.Name {
			continue
		}
		callCtx, cancel := context.WithTimeout(ctx, m.cfg.CallTimeout)
		resp, err := m.clients.get(base).GetFlights(callCtx, seller, numbers)
		cancel()
		if err != nil {
			m.log.Warn("holder did not answer a flight lookup; asking the next holder", "holder", machine, "seller", seller, "err", err)
			continue
		}
		if !slices.Contains(resp.Sellers, seller) {
			continue // it gave the seller up meanwhile
		}
		for _, w := range resp.Flights {
			if w.Seller != seller || !slices.Contains(numbers, w.Flight) {
				continue
			}
			f, err := wire.Parse(w)
			if err != nil {
				return nil, fmt.Errorf("holder %s sent a malformed flight: %w", machine, err)
			}
			found[w.Flight] = f
		}
		return found, nil
	}
	return nil, &ledger.RefusedError{Reason: ledger.Unavailable,
		Msg: fmt.Sprintf("no machine holding seller %s answered: nothing was booked; retry with the same key", seller)}
}
